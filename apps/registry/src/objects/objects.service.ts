import { signCanonical } from '@exchange/crypto';
import { errors, resolveLimit, toPage, decodeCursor } from '@exchange/platform';
import { canRead } from '../domain/access';
import { actingAgent, viewerOf, type Caller } from '../domain/caller';
import { objectIdOf } from '../domain/ids';
import { attestationSubject, parsePayload, RESERVED_TYPES, validateParties, validateTags, validateType, visibilityFrom } from '../domain/validation';
import { checkFixturePayload } from './fixture';
import { withTransaction, type Queryable } from '@exchange/db';
import type { Page, PageRequest, RegistryObject } from '../domain/records';
import { objectsRepo, type ObjectFilter } from './objects.repo';
import type { RegistryContext } from '../service/context';
import { objectStored } from './objects.events';

/** signer_agent_id of objects the exchange signs itself. */
export const EXCHANGE_SIGNER = 'exchange';
const EXCHANGE_CALLER: Caller = { actor: 'system:registry', agentId: null };

/** `visibility` is the wire code (0 unspecified, 1 public, 2 parties, 3 operator): decoded with the other checks, in their order. */
export interface StoreObjectInput {
  type: string;
  payloadJson: string;
  signerAgentId: string;
  signature: string;
  visibility: number;
  parties: string[];
  tags: string[];
}

export type StoreExchangeObjectInput = Omit<StoreObjectInput, 'signerAgentId' | 'signature'>;

export interface Stored<T> {
  object: T;
  created: boolean;
}

/** What the objects use cases use of the start-up context. */
export type ObjectsDeps = Pick<RegistryContext, 'pool' | 'clock' | 'notify' | 'signingKey' | 'exchangePublicKey' | 'agents'>;

export class ObjectsService {
  constructor(private readonly ctx: ObjectsDeps) {}

  async store(req: StoreObjectInput, caller: Caller): Promise<Stored<RegistryObject>> {
    const type = validateType(req.type);
    if (RESERVED_TYPES.has(type)) throw errors.permissionDenied('reserved_type', `type ${type} is reserved to the exchange`, { type });
    const acting = actingAgent(caller);
    const signer = req.signerAgentId !== '' ? req.signerAgentId : acting;
    if (signer === null) throw errors.invalidArgument('validation_failed', 'signer_agent_id is required', { field: 'signer_agent_id' });
    if (acting !== null && acting !== signer) {
      throw errors.permissionDenied('acting_agent_mismatch', `the acting agent ${acting} is not signer_agent_id ${signer}`, {
        field: 'signer_agent_id',
        acting_agent: acting,
      });
    }
    const { payload, canonical } = parsePayload(req.payloadJson);
    checkFixturePayload(type, payload);
    const subjectRef = attestationSubject(type, payload);
    const visibility = visibilityFrom(req.visibility, 'public');
    const parties = validateParties(req.parties);
    const tags = validateTags(req.tags);
    if (req.signature === '') throw errors.invalidArgument('validation_failed', 'signature is required', { field: 'signature' });
    await this.ctx.agents.active(signer);
    const pubkey = await this.ctx.agents.verifySignature(signer, new TextEncoder().encode(canonical), req.signature);
    if (pubkey === null) {
      throw errors.invalidArgument('object_signature_invalid', 'signature does not verify over canonical(payload) with an unrevoked key of the signer', {
        signer_agent_id: signer,
      });
    }
    const row: RegistryObject = {
      objectId: objectIdOf(type, payload, signer),
      type,
      payloadJson: canonical,
      signerAgentId: signer,
      signature: req.signature,
      signerPublicKey: pubkey,
      visibility,
      parties,
      tags,
      subjectRef,
      createdAt: this.ctx.clock(),
    };
    return this.insert(row, caller);
  }

  /** Internal: an object signed by the exchange key (alias tokens, identity reveals). */
  async storeExchange(req: StoreExchangeObjectInput): Promise<Stored<RegistryObject>> {
    const type = validateType(req.type);
    const { payload, canonical } = parsePayload(req.payloadJson);
    const row: RegistryObject = {
      objectId: objectIdOf(type, payload, EXCHANGE_SIGNER),
      type,
      payloadJson: canonical,
      signerAgentId: EXCHANGE_SIGNER,
      signature: signCanonical(payload, this.ctx.signingKey),
      signerPublicKey: this.ctx.exchangePublicKey,
      visibility: visibilityFrom(req.visibility, 'public'),
      parties: validateParties(req.parties),
      tags: validateTags(req.tags),
      subjectRef: attestationSubject(type, payload),
      createdAt: this.ctx.clock(),
    };
    return this.insert(row, EXCHANGE_CALLER);
  }

  private async insert(row: RegistryObject, caller: Caller): Promise<Stored<RegistryObject>> {
    const result = await withTransaction(this.ctx.pool, async (client) => {
      const r = await objectsRepo.insert(client, row);
      if (r.created) await objectStored(client, r.row, caller);
      return r;
    });
    if (result.created) this.ctx.notify();
    return { object: result.row, created: result.created };
  }

  /** The object when the caller may read it: 404 object_not_found, 403 access_denied. */
  async readable(objectId: string, caller: Caller, type?: string): Promise<RegistryObject> {
    const row = await objectsRepo.get(this.ctx.pool, objectId);
    if (!row || (type !== undefined && row.type !== type)) throw errors.notFound('object', objectId);
    if (!canRead(row.visibility, viewerOf(caller), [row.signerAgentId, ...row.parties])) {
      throw errors.permissionDenied('access_denied', `you may not read object ${objectId}`);
    }
    return row;
  }

  list(filter: { type?: string; tag?: string }, page: PageRequest | undefined, caller: Caller): Promise<Page<RegistryObject>> {
    const f: ObjectFilter = {};
    if (filter.type !== undefined && filter.type !== '') f.type = validateType(filter.type);
    if (filter.tag !== undefined && filter.tag !== '') f.tag = validateTags([filter.tag])[0];
    return pageOfObjects(this.ctx.pool, f, page, caller);
  }
}

/** One page of the objects matching `filter` that the caller may read, newest first (ListObjects, QueryAttestations). */
export async function pageOfObjects(db: Queryable, filter: ObjectFilter, pageReq: PageRequest | undefined, caller: Caller): Promise<Page<RegistryObject>> {
  const limit = resolveLimit(pageReq?.limit);
  if (pageReq?.cursor) filter.cursor = decodeCursor(pageReq.cursor);
  const fetched = await objectsRepo.list(db, filter, viewerOf(caller), limit + 1);
  const { data, nextCursor } = toPage(fetched, limit, (r) => ({ createdAt: r.createdAt, id: r.objectId }));
  return { items: data, nextCursor: nextCursor ?? '' };
}
