import { canonicalize, sha256Hex } from '@exchange/crypto';
import { decodeCursor, errors, newId, resolveLimit, toPage } from '@exchange/platform';
import { withTransaction } from '@exchange/db';
import type { CommerceRuntime } from '../service/runtime';
import type { Autonomy, MandateRecord, MandateStatus } from './mandate.model';
import { readable, requireActingSigner, requireCaller, requireChangeable, requireSigner, type Actor } from './mandate-access';
import { effectiveStatus } from './mandate-rules';
import { statusMove, type SettableStatus } from './mandate-status';
import { idempotencyKey, validateAutonomy, validateCreateMandate, type AutonomyInput, type CreateMandateInput, type MandateDraft } from './mandate-input';
import { mandateSigningBytes } from './mandate-signing';
import * as keys from './mandate-idempotency.repo';
import * as repo from './mandates.repo';
import { enqueueMandateEvent } from './mandates.events';

export type MandatesDeps = Pick<CommerceRuntime, 'pool' | 'agents' | 'clock' | 'notify'>;

export interface ListMandatesInput {
  signerAgentId?: string;
  status?: MandateStatus;
  limit: number;
  cursor: string;
}

const actorName = (actor: Actor) => (actor.operator ? 'operator' : `agent:${actor.agentId}`);

/** Mandates: create (signed by the signer), read, list, and the signer's autonomy settings. */
export class MandatesService {
  constructor(private readonly deps: MandatesDeps) {}

  /**
   * Checks the request (400s), the acting signer (403), both agents (404/403 agent_frozen) and
   * the signature (400 mandate_signature_invalid), then stores the mandate with its `created`
   * event. With an idempotency key: the same request again answers the stored mandate
   * (`replayed`), another request under that key 422 idempotency_key_reused.
   */
  async create(input: CreateMandateInput & { idempotencyKey: string }, actor: Actor): Promise<{ mandate: MandateRecord; replayed: boolean }> {
    requireActingSigner(input.signerAgentId, actor);
    const key = idempotencyKey(input.idempotencyKey);
    const scope = input.signerAgentId;
    const hash = sha256Hex(canonicalize(requestFingerprint(input)));
    if (key !== undefined) {
      const earlier = await keys.findCreateMandateKey(this.deps.pool, scope, key);
      if (earlier !== null) return this.replay(earlier, hash);
    }
    const now = this.deps.clock();
    const draft = validateCreateMandate(input, now);
    await this.checkParties(draft);
    const record: MandateRecord = {
      ...draft,
      mandateId: newId('mdt'),
      status: 'active',
      spent: 0n,
      reserved: 0n,
      createdAt: now,
      updatedAt: now,
    };
    const outcome = await withTransaction(this.deps.pool, async (client) => {
      if (key !== undefined) {
        const concurrent = await keys.claimCreateMandateKey(client, scope, key, hash, record.mandateId, now);
        if (concurrent !== null) return concurrent;
      }
      await repo.insertMandate(client, record, draft.signedPayload);
      await enqueueMandateEvent(client, 'created', record, now, actorName(actor));
      return null;
    });
    if (outcome !== null) return this.replay(outcome, hash);
    this.deps.notify();
    return { mandate: record, replayed: false };
  }

  async get(mandateId: string, actor: Actor): Promise<MandateRecord> {
    return readable(await repo.getMandate(this.deps.pool, mandateId), mandateId, actor);
  }

  /** An agent lists what it signed or was granted; the operator every mandate. */
  async list(input: ListMandatesInput, actor: Actor): Promise<{ data: MandateRecord[]; nextCursor: string | null }> {
    requireCaller(actor);
    const limit = resolveLimit(input.limit);
    const after = input.cursor === '' ? undefined : decodeCursor(input.cursor);
    const rows = await repo.listMandates(this.deps.pool, {
      partyAgentId: actor.operator ? null : actor.agentId,
      signerAgentId: input.signerAgentId,
      status: input.status,
      now: this.deps.clock(),
      after,
      fetch: limit + 1,
    });
    return toPage(rows, limit, (m) => ({ createdAt: m.createdAt, id: m.mandateId }));
  }

  /** Replaces the autonomy settings in full (signer only; not once revoked or expired), with the `autonomy_updated` event. */
  async putAutonomy(mandateId: string, input: AutonomyInput, actor: Actor): Promise<MandateRecord> {
    const updated = await withTransaction(this.deps.pool, async (client) => {
      const m = readable(await repo.getMandate(client, mandateId, { forUpdate: true }), mandateId, actor);
      requireSigner(m, actor);
      const now = this.deps.clock();
      requireChangeable(m, effectiveStatus(m, now));
      const autonomy: Autonomy = validateAutonomy(input, m.limits.currency);
      const next = await repo.updateAutonomy(client, mandateId, autonomy, now);
      await enqueueMandateEvent(client, 'autonomy_updated', next, now, actorName(actor));
      return next;
    });
    this.deps.notify();
    return updated;
  }

  /**
   * Pauses, resumes or revokes (mandate-status.ts) with the `status_changed` event; the status it
   * already has answers the mandate unchanged. A paused or revoked mandate refuses every new spend;
   * a purchase already reserved under it finishes.
   */
  async setStatus(mandateId: string, wanted: SettableStatus, actor: Actor): Promise<MandateRecord> {
    const result = await withTransaction(this.deps.pool, async (client) => {
      const m = readable(await repo.getMandate(client, mandateId, { forUpdate: true }), mandateId, actor);
      const now = this.deps.clock();
      const next = statusMove(m, effectiveStatus(m, now), wanted, actor);
      if (next === null) return { mandate: m, changed: false };
      const updated = await repo.updateStatus(client, mandateId, next, now);
      await enqueueMandateEvent(client, 'status_changed', updated, now, actorName(actor));
      return { mandate: updated, changed: true };
    });
    if (result.changed) this.deps.notify();
    return result.mandate;
  }

  private async replay(hit: keys.IdempotencyHit, hash: string): Promise<{ mandate: MandateRecord; replayed: boolean }> {
    if (hit.requestHash !== hash) {
      throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request');
    }
    const mandate = await repo.getMandate(this.deps.pool, hit.mandateId);
    if (mandate === null) throw new Error(`idempotency record names missing mandate ${hit.mandateId}`);
    return { mandate, replayed: true };
  }

  /** Both agents exist; the signer is not frozen; the signature is the signer's (identity's current keys). */
  private async checkParties(draft: MandateDraft): Promise<void> {
    await Promise.all([this.deps.agents.active(draft.signerAgentId), this.deps.agents.get(draft.agentId)]);
    const pubkey = await this.deps.agents.verifySignature(draft.signerAgentId, mandateSigningBytes(draft.signedPayload), draft.signature);
    if (pubkey === null) {
      throw errors.invalidArgument('mandate_signature_invalid', 'the mandate signature does not verify with a key of signer_agent_id', {
        signer_agent_id: draft.signerAgentId,
      });
    }
  }
}

/** What makes two create requests "the same" for idempotency: every field but the key. */
function requestFingerprint(input: CreateMandateInput): unknown {
  return {
    rpc: keys.CREATE_MANDATE_RPC,
    signer_agent_id: input.signerAgentId,
    agent_id: input.agentId,
    scope: [input.scopeMerchants, input.scopeCategories, input.scopeSkus],
    limits: [input.perTransaction, input.totalLimit, input.currency],
    expires_at: input.expiresAt === undefined || Number.isNaN(input.expiresAt.getTime()) ? null : input.expiresAt.toISOString(),
    signature: input.signature,
    autonomy: input.autonomy === undefined ? null : {
      mode: input.autonomy.mode ?? null,
      threshold: input.autonomy.stepUpThreshold ?? null,
      new_merchants: input.autonomy.approvalForNewMerchants,
      daily_limit: input.autonomy.dailyLimit ?? null,
    },
  };
}
