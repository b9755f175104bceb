import { canonicalize, generateKeyPair, publicKeyFromPrivate, sha256Hex, signCanonical, toBase64, verifyCanonical } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { registryV1 } from '@exchange/proto';
import { startProtoFake, type FakeAgent, type ProtoFake } from '@exchange/testing';

// The registry's StoreObject / StoreExchangeObject on a REAL gRPC server, with the rules the real
// registry applies (apps/registry/src/objects/objects.service.ts): object_id = "sha256:" + hex
// sha256 of canonical({type, payload, signer_agent_id}); the same object again → created false with
// the stored one; StoreObject verifies the ed25519 signature over canonical(payload) with a key of
// the signer (400 object_signature_invalid otherwise) and refuses reserved types; StoreExchangeObject
// signs with the exchange key (signer "exchange"). Calls are recorded so a test can assert that
// nothing was stored. Every other registry method answers UNIMPLEMENTED.

/** Types only the exchange stores (mirrors the registry's RESERVED_TYPES). */
const RESERVED_TYPES = new Set(['party_alias_token', 'identity_reveal', 'meter_epoch_table', 'subscription_period_receipt']);
export const EXCHANGE_SIGNER = 'exchange';

export interface FakeRegistry {
  /** host:port, for REGISTRY_GRPC_URL. */
  address: string;
  /** Base64 public key of the exchange key StoreExchangeObject signs with. */
  exchangePublicKey: string;
  /** Stored objects by object_id. */
  objects: Map<string, registryV1.RegistryObject>;
  /** The underlying proto fake: `fake.log.count('storeObject')`, `fake.failNext('storeObject', err)`, `fake.lastCall(...)`. */
  fake: ProtoFake;
  /** How many calls of a method ("storeObject" | "storeExchangeObject") were made. */
  count(method: 'storeObject' | 'storeExchangeObject'): number;
  /** Adds (or replaces) an agent's verifying keys (base64). */
  putAgent(agent: Pick<FakeAgent, 'agentId' | 'pubkeys'>): void;
  stop(): Promise<void>;
}

export interface FakeRegistryOptions {
  /** Agents whose keys verify StoreObject signatures (the fake identity's agents, same objects). */
  agents?: Array<Pick<FakeAgent, 'agentId' | 'pubkeys'>>;
  /** Exchange private key (32-byte seed); a fresh one by default. */
  exchangePrivateKey?: Uint8Array;
}

/** The registry's object id formula. */
export function registryObjectId(type: string, payload: unknown, signerAgentId: string): string {
  return `sha256:${sha256Hex(new TextEncoder().encode(canonicalize({ type, payload, signer_agent_id: signerAgentId })))}`;
}

function parse(payloadJson: string): unknown {
  try {
    return JSON.parse(payloadJson);
  } catch {
    throw errors.invalidArgument('validation_failed', 'payload must be JSON', { field: 'payload' });
  }
}

export async function startFakeRegistry(opts: FakeRegistryOptions = {}): Promise<FakeRegistry> {
  const exchangeKey = opts.exchangePrivateKey ?? generateKeyPair().privateKey;
  const exchangePublicKey = toBase64(publicKeyFromPrivate(exchangeKey));
  const keys = new Map<string, string[]>();
  for (const a of opts.agents ?? []) keys.set(a.agentId, a.pubkeys ?? []);
  const objects = new Map<string, registryV1.RegistryObject>();

  const keep = (object: registryV1.RegistryObject): registryV1.StoreObjectResponse => {
    const existing = objects.get(object.objectId);
    if (existing) return { object: existing, created: false };
    objects.set(object.objectId, object);
    return { object, created: true };
  };

  const fake = await startProtoFake(
    registryV1.RegistryServiceService,
    {
      storeObject: (req) => {
        if (RESERVED_TYPES.has(req.type)) throw errors.permissionDenied('reserved_type', `type ${req.type} is reserved to the exchange`, { type: req.type });
        const payload = parse(req.payloadJson);
        const agentKeys = keys.get(req.signerAgentId);
        if (!agentKeys) throw errors.notFound('agent', req.signerAgentId);
        const pubkey = agentKeys.find((k) => verifyCanonical(payload, req.signature, k));
        if (pubkey === undefined) {
          throw errors.invalidArgument('object_signature_invalid', 'signature does not verify over canonical(payload) with an unrevoked key of the signer', {
            signer_agent_id: req.signerAgentId,
          });
        }
        return keep({
          objectId: registryObjectId(req.type, payload, req.signerAgentId),
          type: req.type,
          payloadJson: canonicalize(payload),
          signerAgentId: req.signerAgentId,
          signature: req.signature,
          signerPublicKey: pubkey,
          visibility: req.visibility,
          parties: [...new Set(req.parties)],
          tags: [...new Set(req.tags)],
          createdAt: new Date(),
        });
      },
      storeExchangeObject: (req) => {
        const payload = parse(req.payloadJson);
        return keep({
          objectId: registryObjectId(req.type, payload, EXCHANGE_SIGNER),
          type: req.type,
          payloadJson: canonicalize(payload),
          signerAgentId: EXCHANGE_SIGNER,
          signature: signCanonical(payload, exchangeKey),
          signerPublicKey: exchangePublicKey,
          visibility: req.visibility,
          parties: [...new Set(req.parties)],
          tags: [...new Set(req.tags)],
          createdAt: new Date(),
        });
      },
    },
    { missing: 'unimplemented' },
  );

  return {
    address: fake.address,
    exchangePublicKey,
    objects,
    fake,
    count: (method) => fake.log.count(method),
    putAgent: (a) => void keys.set(a.agentId, a.pubkeys ?? []),
    stop: () => fake.stop(),
  };
}

/** An agent with a real key pair: pass it to startTestWallet({agents}) and startFakeRegistry({agents}). */
export interface KeyedAgent extends FakeAgent {
  agentId: string;
  pubkeys: string[];
  privateKey: Uint8Array;
  /** Base64 ed25519 signature over canonical(payload). */
  sign(payload: unknown): string;
}

export function keyedAgent(agentId: string): KeyedAgent {
  const pair = generateKeyPair();
  return { agentId, pubkeys: [toBase64(pair.publicKey)], privateKey: pair.privateKey, sign: (payload) => signCanonical(payload, pair.privateKey) };
}

/** The wallet env that wires it to this registry: `startTestWallet({ env: registryEnv(reg) })`. */
export function registryEnv(reg: Pick<FakeRegistry, 'address'>): Record<string, string> {
  return { REGISTRY_GRPC_URL: reg.address };
}
