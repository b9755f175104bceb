import { status } from '@grpc/grpc-js';
import { errorInfoFromGrpc, errors, type Logger, type PromiseClient } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import type { IdentityLevel } from '../domain/identity-levels';
import type { AgentDirectory, AgentInfo } from '../domain/ledger.ports';
import { walletErrors } from '../domain/wallet.errors';

export type IdentityClient = PromiseClient<typeof identityV1.IdentityServiceService>;

const LEVELS: Partial<Record<identityV1.IdentityLevel, IdentityLevel>> = {
  [identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED]: 'SANDBOX_UNVERIFIED',
  [identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC]: 'MAINNET_BASIC',
  [identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_ATTESTED]: 'MAINNET_ATTESTED',
  [identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_VERIFIED]: 'MAINNET_VERIFIED',
  [identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_INSTITUTIONAL]: 'MAINNET_INSTITUTIONAL',
};

export function toAgentInfo(agent: identityV1.Agent): AgentInfo {
  return {
    agentId: agent.agentId,
    level: LEVELS[agent.identityLevel] ?? 'SANDBOX_UNVERIFIED',
    frozen: agent.status === identityV1.AgentStatus.AGENT_STATUS_FROZEN,
    pubkeys: agent.keys.map((k) => k.pubkey),
  };
}

/** Bounded so a flood of distinct agent ids cannot grow memory without limit. */
const MAX_ENTRIES = 10_000;

/**
 * Agents from identity over gRPC. `get` reuses each answer for `ttlMs` (AGENT_CACHE_TTL_MS;
 * concurrent lookups of one agent share one call; failures are not cached): existence and
 * recipients. `current` always asks identity (and refreshes the cache): the wallet owner of a
 * mutation, so a freeze stops its money at once, not within ttlMs (issue 12 finding 14).
 */
export class CachedAgentDirectory implements AgentDirectory {
  private readonly cache = new Map<string, { expires: number; agent: Promise<AgentInfo> }>();

  constructor(
    private readonly client: IdentityClient,
    private readonly ttlMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  get(agentId: string): Promise<AgentInfo> {
    const t = this.now();
    const hit = this.cache.get(agentId);
    if (hit && hit.expires > t) return hit.agent;
    const agent = this.fetch(agentId);
    if (this.ttlMs > 0) {
      if (this.cache.size >= MAX_ENTRIES) this.evict(t);
      this.cache.set(agentId, { expires: t + this.ttlMs, agent });
      agent.catch(() => {
        if (this.cache.get(agentId)?.agent === agent) this.cache.delete(agentId);
      });
    }
    return agent;
  }

  current(agentId: string): Promise<AgentInfo> {
    // Never joins a lookup already in flight: it may have started before the freeze answered.
    const agent = this.fetch(agentId);
    if (this.ttlMs > 0) {
      agent.then(
        () => {
          if (this.cache.size >= MAX_ENTRIES) this.evict(this.now());
          this.cache.set(agentId, { expires: this.now() + this.ttlMs, agent });
        },
        () => undefined,
      );
    }
    return agent;
  }

  private async fetch(agentId: string): Promise<AgentInfo> {
    try {
      const { agent } = await this.client.getAgent({ agentId });
      if (!agent) throw errors.notFound('agent', agentId);
      return toAgentInfo(agent);
    } catch (err) {
      const info = errorInfoFromGrpc(err);
      if (info.grpcCode === status.NOT_FOUND || info.grpcCode === status.INVALID_ARGUMENT) throw errors.notFound('agent', agentId);
      this.logger.warn({ err: info.message, code: info.code }, 'identity lookup failed');
      throw walletErrors.identityUnavailable();
    }
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
