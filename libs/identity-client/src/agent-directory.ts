import { status } from '@grpc/grpc-js';
import { errorInfoFromGrpc, errors, type Logger, type PromiseClient } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import { AgentBatcher } from './agent-batcher';
import { getAgentOutcome, identityUnavailable } from './identity-errors';

export type IdentityClient = PromiseClient<typeof identityV1.IdentityServiceService>;

export interface AgentInfo {
  agentId: string;
  frozen: boolean;
  /** identity_level (the market marks a SANDBOX_UNVERIFIED buyer's contracts sandbox). */
  level: identityV1.IdentityLevel;
}

/** What every caller needs of an agent; a service may map identity's agent to more (see `toInfo`). */
export interface AgentBasics {
  agentId: string;
  frozen: boolean;
}

export function agentInfo(agent: identityV1.Agent): AgentInfo {
  return { agentId: agent.agentId, frozen: agent.status === identityV1.AgentStatus.AGENT_STATUS_FROZEN, level: agent.identityLevel };
}

/** Bounded so a flood of distinct agent ids cannot grow memory without limit. */
const MAX_ENTRIES = 10_000;

/**
 * Agents from identity over gRPC, each answer reused for `ttlMs` (AGENT_CACHE_TTL_MS; a freeze
 * takes effect within it). Concurrent lookups of one agent share one call; failures are not
 * cached. `current` always asks identity (for what must see a freeze at once, e.g. the owner of
 * a money movement): the `current` lookups made together go as one GetAgents, and each is
 * answered only by a call sent after it was made (`AgentBatcher`). Signatures are never cached:
 * each report is checked against identity's current keys. `toInfo` maps identity's agent
 * (default: AgentInfo).
 */
export class AgentDirectory<A extends AgentBasics = AgentInfo> {
  private readonly cache = new Map<string, { expires: number; agent: Promise<A> }>();
  private readonly batcher: AgentBatcher;

  constructor(
    private readonly client: IdentityClient,
    private readonly ttlMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    // The default fits the default A only; a service choosing its own A passes its mapping.
    private readonly toInfo: (agent: identityV1.Agent) => A = agentInfo as unknown as (agent: identityV1.Agent) => A,
  ) {
    this.batcher = new AgentBatcher(client, logger, now);
  }

  /** Possibly cached: 404 agent_not_found for an unknown agent, 503 identity_unavailable. */
  get(agentId: string): Promise<A> {
    const t = this.now();
    const hit = this.cache.get(agentId);
    if (hit && hit.expires > t) return hit.agent;
    const agent = this.fetch(agentId);
    if (this.ttlMs > 0) {
      this.remember(agentId, agent, t);
      agent.catch(() => {
        if (this.cache.get(agentId)?.agent === agent) this.cache.delete(agentId);
      });
    }
    return agent;
  }

  /** Identity's answer now, never a cached one (it refreshes the cache); errors as `get`. */
  current(agentId: string): Promise<A> {
    // Never joins a lookup already in flight (the batcher's rule): it may have started before the freeze answered.
    const agent = this.batcher.lookup(agentId).then((found) => this.mapped(agentId, found));
    if (this.ttlMs > 0) {
      agent.then(
        () => this.remember(agentId, agent, this.now()),
        () => undefined,
      );
    }
    return agent;
  }

  /** The agent exists (404 agent_not_found) and is not frozen (403 agent_frozen). */
  async active(agentId: string): Promise<A> {
    const agent = await this.get(agentId);
    if (agent.frozen) throw errors.permissionDenied('agent_frozen', `agent ${agentId} is frozen`, { agent_id: agentId });
    return agent;
  }

  /** The verifying public key (base64) when `signature` over `message` verifies with an unrevoked key of the agent, else null. */
  async verifySignature(agentId: string, message: Uint8Array, signature: string): Promise<string | null> {
    try {
      const res = await this.client.verifyAgentSignature({ agentId, message: Buffer.from(message), signature });
      return res.valid ? res.pubkey : null;
    } catch (err) {
      const info = errorInfoFromGrpc(err);
      // A malformed signature is identity's INVALID_ARGUMENT: simply not a valid signature.
      if (info.grpcCode === status.INVALID_ARGUMENT || info.grpcCode === status.NOT_FOUND) return null;
      this.logger.warn({ err: info.message, code: info.code }, 'identity signature check failed');
      throw identityUnavailable();
    }
  }

  private async fetch(agentId: string): Promise<A> {
    const outcome = await getAgentOutcome(this.client, agentId, this.logger);
    if (outcome instanceof Error) throw outcome;
    return this.mapped(agentId, outcome);
  }

  /**
   * 404 for an agent identity does not know, else `toInfo` of it. A mapper that throws answers
   * 503 identity_unavailable, logged, as a failed call does: callers (`get` and `current` alike)
   * only ever see the directory's documented errors.
   */
  private mapped(agentId: string, agent: identityV1.Agent | null): A {
    if (!agent) throw errors.notFound('agent', agentId);
    try {
      return this.toInfo(agent);
    } catch (err) {
      this.logger.error({ err, agent_id: agentId }, 'identity agent mapping failed');
      throw identityUnavailable();
    }
  }

  /** Caches `agent` from `now` for the TTL, making room first when full. */
  private remember(agentId: string, agent: Promise<A>, now: number): void {
    if (this.cache.size >= MAX_ENTRIES) this.evict(now);
    this.cache.set(agentId, { expires: now + this.ttlMs, agent });
  }

  private evict(now: number): void {
    for (const [id, entry] of this.cache) if (entry.expires <= now) this.cache.delete(id);
    // Still full of live entries: drop the oldest insertions (Map keeps insertion order).
    for (const id of this.cache.keys()) {
      if (this.cache.size < MAX_ENTRIES) break;
      this.cache.delete(id);
    }
  }
}
