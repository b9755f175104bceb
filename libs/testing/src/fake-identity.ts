import { canonicalize, fromBase64, generateKeyPair, sha256Hex, signCanonical, toBase64, verify } from '@exchange/crypto';
import { randomBytes } from 'node:crypto';
import { DomainError, errors, startGrpcServer, unary, type GrpcServerHandle } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import { status } from '@grpc/grpc-js';
import { testLogger } from './test-logger';

// A real gRPC IdentityService holding agents in memory, for services whose integration tests need
// identity as a collaborator (wallet-ledger, market…) without importing another service's app.
// GetAgent, GetAgents, ListAgents and VerifyAgentSignature behave as identity's; MintPartyAlias and
// MintIdentityReveal keep aliases in memory and sign with a key of their own (no registry); the
// rest is UNIMPLEMENTED.

export interface FakeAgent {
  agentId: string;
  level?: identityV1.IdentityLevel;
  frozen?: boolean;
  /** Base64 ed25519 public keys; the first is primary. */
  pubkeys?: string[];
}

export interface FakeIdentity {
  /** host:port of the gRPC server. */
  address: string;
  put(agent: FakeAgent): void;
  freeze(agentId: string, frozen?: boolean): void;
  setLevel(agentId: string, level: identityV1.IdentityLevel): void;
  /** Minted aliases: "<contract_id>|<role>" (generation 0) or "<contract_id>|<role>|<generation>" → {alias, agentId}. */
  aliases: Map<string, { alias: string; agentId: string }>;
  /** Public key (base64) the alias tokens and reveals are signed with. */
  exchangePublicKey: string;
  /** The next `n` MintPartyAlias calls fail UNAVAILABLE registry_unavailable. */
  failMints(n?: number): void;
  /** How often each RPC was called (to assert caching). */
  calls: Record<string, number>;
  /** The ids each GetAgents call asked for, in call order (to assert batching). */
  batches: string[][];
  /**
   * Runs when a GetAgents call has read its agents, before it answers: may hold that answer back
   * (return a promise; a freeze made meanwhile is not in it, as with a slow identity) or fail the
   * call (throw a DomainError).
   */
  onGetAgents: ((agentIds: string[]) => void | Promise<void>) | null;
  close(): Promise<void>;
}

const EPOCH = new Date(0);
/**
 * As identity: GetAgents takes at most this many ids. The cap lives in @exchange/identity-client
 * (AGENT_BATCH_MAX, agent-batcher.ts; identity's own in apps/identity/src/agents/validation.ts);
 * not imported, since identity-client's specs use this library (an Nx import cycle).
 */
const AGENT_BATCH_MAX = 1000;

/**
 * GetAgents as identity answers it, for every fake identity (this one, the gateway's): more than
 * AGENT_BATCH_MAX ids refused with identity's code, message and field error; otherwise each agent
 * `lookup` finds, once, in first-asked order; unknown (and so malformed) ids absent.
 */
export function answerGetAgents<A>(agentIds: readonly string[], lookup: (agentId: string) => A | undefined): A[] {
  if (agentIds.length > AGENT_BATCH_MAX) {
    const message = `must hold at most ${AGENT_BATCH_MAX} ids`;
    throw errors.invalidArgument('validation_failed', `agent_ids ${message}`, { errors: [{ pointer: '/agent_ids', message }] });
  }
  return [...new Set(agentIds)].map(lookup).filter((a): a is A => a !== undefined);
}

function toAgent(a: FakeAgent): identityV1.Agent {
  const keys = a.pubkeys ?? [];
  return {
    agentId: a.agentId,
    primaryPubkey: keys[0] ?? '',
    keys: keys.map((pubkey, i) => ({
      pubkey,
      primary: i === 0,
      status: identityV1.KeyStatus.KEY_STATUS_ACTIVE,
      addedAt: EPOCH,
      revokedAt: undefined,
      revokedReason: undefined,
    })),
    identityLevel: a.level ?? identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
    status: a.frozen ? identityV1.AgentStatus.AGENT_STATUS_FROZEN : identityV1.AgentStatus.AGENT_STATUS_ACTIVE,
    frozenReason: a.frozen ? 'frozen by test' : undefined,
    createdAt: EPOCH,
    updatedAt: EPOCH,
  };
}

export async function startFakeIdentity(initial: FakeAgent[] = []): Promise<FakeIdentity> {
  const agents = new Map<string, FakeAgent>(initial.map((a) => [a.agentId, { ...a }]));
  const calls: Record<string, number> = {};
  const batches: string[][] = [];
  const count = (name: string) => (calls[name] = (calls[name] ?? 0) + 1);
  const find = (agentId: string): FakeAgent => {
    const agent = agents.get(agentId);
    if (!agent) throw errors.notFound('agent', agentId);
    return agent;
  };
  const exchangeKeys = generateKeyPair();
  const aliases = new Map<string, { alias: string; agentId: string }>();
  let mintFailures = 0;
  const exchangeObject = (type: string, payload: Record<string, unknown>) => ({
    objectId: `sha256:${sha256Hex(canonicalize({ type, payload, signer_agent_id: 'exchange' }))}`,
    payloadJson: canonicalize(payload),
    signature: signCanonical(payload, exchangeKeys.privateKey),
  });
  const reveals = new Set<string>();
  const unimplemented = (name: string) => async (): Promise<never> => {
    throw new DomainError(status.UNIMPLEMENTED, 'unimplemented', `${name} is not implemented by the fake identity`);
  };

  const handlers: identityV1.IdentityServiceServer = {
    getAgent: unary(testLogger, 'GetAgent', async (req: identityV1.GetAgentRequest) => {
      count('GetAgent');
      return { agent: toAgent(find(req.agentId)) };
    }),
    getAgents: unary(testLogger, 'GetAgents', async (req: identityV1.GetAgentsRequest) => {
      count('GetAgents');
      batches.push([...req.agentIds]);
      const answer = { agents: answerGetAgents(req.agentIds, (id) => agents.get(id)).map(toAgent) };
      await fake.onGetAgents?.(req.agentIds);
      return answer;
    }),
    listAgents: unary(testLogger, 'ListAgents', async () => {
      count('ListAgents');
      return { agents: [...agents.values()].map(toAgent), page: { nextCursor: '' } };
    }),
    verifyAgentSignature: unary(testLogger, 'VerifyAgentSignature', async (req: identityV1.VerifyAgentSignatureRequest) => {
      count('VerifyAgentSignature');
      const agent = agents.get(req.agentId);
      if (!agent) return { valid: false, pubkey: '', agent: undefined };
      const signature = fromBase64(req.signature);
      const key = (agent.pubkeys ?? []).find((pk) => verify(signature, req.message, fromBase64(pk)));
      return { valid: key !== undefined, pubkey: key ?? '', agent: toAgent(agent) };
    }),
    mintPartyAlias: unary(testLogger, 'MintPartyAlias', async (req: identityV1.MintPartyAliasRequest) => {
      count('MintPartyAlias');
      if (mintFailures > 0) {
        mintFailures--;
        throw errors.unavailable('registry_unavailable', 'the registry is unavailable (fake)');
      }
      const role = req.role === identityV1.PartyRole.PARTY_ROLE_BUYER ? 'buyer' : req.role === identityV1.PartyRole.PARTY_ROLE_SELLER ? 'seller' : null;
      if (role === null || req.contractId === '' || req.agentId === '') throw errors.invalidArgument('validation_failed', 'contract_id, role and agent_id are required');
      // Generation N > 0 (an operator alias update) is a fresh alias of its own; 0 keeps the old key.
      const key = req.generation ? `${req.contractId}|${role}|${req.generation}` : `${req.contractId}|${role}`;
      const existing = aliases.get(key);
      const entry = existing ?? { alias: `anon:${[...randomBytes(12)].map((b) => 'abcdefghijklmnopqrstuvwxyz234567'[b & 31]).join('')}`, agentId: req.agentId };
      if (existing && existing.agentId !== req.agentId) throw errors.failedPrecondition('alias_agent_mismatch', 'the role has another agent');
      aliases.set(key, entry);
      const token = exchangeObject('party_alias_token', { alias: entry.alias, contract_id: req.contractId, role });
      return { alias: entry.alias, ...token, created: existing === undefined };
    }),
    mintIdentityReveal: unary(testLogger, 'MintIdentityReveal', async (req: identityV1.MintIdentityRevealRequest, ctx) => {
      count('MintIdentityReveal');
      const found = [...aliases.entries()].find(([key, v]) => v.alias === req.alias && key.startsWith(`${req.contractId}|`));
      if (!found) throw errors.notFound('alias', req.alias);
      const acting = ctx.agentId ?? (ctx.actor?.startsWith('agent:') ? ctx.actor.slice(6) : null);
      const operator = ctx.agentId === null && (ctx.actor?.startsWith('operator:') ?? false);
      if (!operator && acting !== found[1].agentId) throw errors.permissionDenied('not_alias_owner', 'only the aliased agent or the operator');
      const reveal = exchangeObject('identity_reveal', { alias: req.alias, agent_id: found[1].agentId, contract_id: req.contractId, reveal_to: req.revealTo });
      const created = !reveals.has(reveal.objectId);
      reveals.add(reveal.objectId);
      return { ...reveal, created };
    }),
    registerAgent: unary(testLogger, 'RegisterAgent', unimplemented('RegisterAgent')),
    changeIdentityLevel: unary(testLogger, 'ChangeIdentityLevel', unimplemented('ChangeIdentityLevel')),
    listIdentityTransitions: unary(testLogger, 'ListIdentityTransitions', unimplemented('ListIdentityTransitions')),
    revokeKey: unary(testLogger, 'RevokeKey', unimplemented('RevokeKey')),
    freezeAgent: unary(testLogger, 'FreezeAgent', unimplemented('FreezeAgent')),
    unfreezeAgent: unary(testLogger, 'UnfreezeAgent', unimplemented('UnfreezeAgent')),
  };

  const server: GrpcServerHandle = await startGrpcServer({
    name: 'exchange.identity.v1.IdentityService',
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    register: (s) => s.addService(identityV1.IdentityServiceService, handlers),
  });
  server.setServing();

  const fake: FakeIdentity = {
    address: `127.0.0.1:${server.port}`,
    put: (agent) => void agents.set(agent.agentId, { ...agent }),
    freeze: (agentId, frozen = true) => void (find(agentId).frozen = frozen),
    setLevel: (agentId, level) => void (find(agentId).level = level),
    aliases,
    exchangePublicKey: toBase64(exchangeKeys.publicKey),
    failMints: (n = 1) => void (mintFailures += n),
    calls,
    batches,
    onGetAgents: null,
    close: () => server.shutdown(0),
  };
  return fake;
}

/** Base64 of 32 bytes, usable as a fake agent's public key. */
export function fakePubkey(seed: number): string {
  return toBase64(new Uint8Array(32).fill(seed & 0xff));
}
