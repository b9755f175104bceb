import { fromBase64, toBase64, verify } from '@exchange/crypto';
import { DomainError, errors, startGrpcServer, unary, type GrpcServerHandle } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import { status } from '@grpc/grpc-js';
import { testLogger } from './test-logger';

// A real gRPC IdentityService holding agents in memory, for services whose integration tests need
// identity as a collaborator (wallet-ledger, market…) without importing another service's app.
// GetAgent, ListAgents and VerifyAgentSignature behave as identity's; the rest is UNIMPLEMENTED.

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
  /** How often each RPC was called (to assert caching). */
  calls: Record<string, number>;
  close(): Promise<void>;
}

const EPOCH = new Date(0);

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
  const count = (name: string) => (calls[name] = (calls[name] ?? 0) + 1);
  const find = (agentId: string): FakeAgent => {
    const agent = agents.get(agentId);
    if (!agent) throw errors.notFound('agent', agentId);
    return agent;
  };
  const unimplemented = (name: string) => async (): Promise<never> => {
    throw new DomainError(status.UNIMPLEMENTED, 'unimplemented', `${name} is not implemented by the fake identity`);
  };

  const handlers: identityV1.IdentityServiceServer = {
    getAgent: unary(testLogger, 'GetAgent', async (req: identityV1.GetAgentRequest) => {
      count('GetAgent');
      return { agent: toAgent(find(req.agentId)) };
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

  return {
    address: `127.0.0.1:${server.port}`,
    put: (agent) => void agents.set(agent.agentId, { ...agent }),
    freeze: (agentId, frozen = true) => void (find(agentId).frozen = frozen),
    setLevel: (agentId, level) => void (find(agentId).level = level),
    calls,
    close: () => server.shutdown(0),
  };
}

/** Base64 of 32 bytes, usable as a fake agent's public key. */
export function fakePubkey(seed: number): string {
  return toBase64(new Uint8Array(32).fill(seed & 0xff));
}
