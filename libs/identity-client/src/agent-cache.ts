import type { CallOptions } from '@exchange/platform';
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { identityV1 } from '@exchange/proto';
import type { IdentityClient } from './agent-directory';

// A small TTL cache of GetAgent as identity answers it, for the gateway's own decisions (rate-limit
// tier, frozen check). Unlike AgentDirectory (the services' view: mapped errors, nothing negative
// cached) it keeps identity's agent whole, caches "unknown agent" as null for the TTL too, and
// lets every other failure through untouched, for the gateway's own gRPC → HTTP mapping.
// Staleness: an identity-level change or a freeze made through ANOTHER gateway replica (or
// directly on identity) is seen here after at most `ttlMs`; changes made through this gateway
// refresh the entry at once (`put`). Services enforce their own rules, so this only affects the
// gateway checks (limits and agent_frozen) for that short window.

export type AgentLookup = (agentId: string, opts: CallOptions) => Promise<identityV1.Agent | undefined>;

interface Entry {
  agent: identityV1.Agent | null;
  storedAt: number;
  expiresAt: number;
}

export class AgentCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<identityV1.Agent | null>>();
  /**
   * The newest updatedAt an identity event reported per agent, cached or not: an answer that left
   * identity before that change (a lookup, a verification in flight when the event came) is not
   * stored. Bounded like the entries; a replayed old event never lowers it.
   */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly lookup: AgentLookup,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A cache over identity's GetAgent; each lookup carries the caller's call options (request id, actor). */
  static of(client: Pick<IdentityClient, 'getAgent'>, ttlMs: number, maxEntries?: number): AgentCache {
    return new AgentCache(async (agentId, callOpts) => (await client.getAgent({ agentId }, callOpts)).agent, ttlMs, maxEntries);
  }

  /** The agent, or null when identity does not know it. One lookup in flight per agent. */
  get(agentId: string, opts: CallOptions): Promise<identityV1.Agent | null> {
    const entry = this.entries.get(agentId);
    if (entry && entry.expiresAt > this.now()) return Promise.resolve(entry.agent);
    const pending = this.inFlight.get(agentId);
    if (pending) return pending;
    const load = this.load(agentId, opts).finally(() => this.inFlight.delete(agentId));
    this.inFlight.set(agentId, load);
    return load;
  }

  /**
   * The cached agent when it was stored at most `maxAgeMs` ago, without asking identity (undefined
   * otherwise, and for an agent cached as unknown): the gateway verifies signatures against its
   * keys, so key material is trusted for a shorter time than the level and status.
   */
  peek(agentId: string, maxAgeMs: number): identityV1.Agent | undefined {
    const entry = this.entries.get(agentId);
    if (!entry || entry.agent === null) return undefined;
    const now = this.now();
    return entry.expiresAt > now && now - entry.storedAt <= maxAgeMs ? entry.agent : undefined;
  }

  /** Stores a fresh copy (e.g. from VerifyAgentSignature or after a freeze through this gateway). */
  put(agent: identityV1.Agent): void {
    this.store(agent.agentId, agent);
  }

  /**
   * Replaces a cached agent by a newer copy (an identity event); an agent not cached stays out, so
   * replayed old events never bring back an old state, but no answer older than the event is
   * stored for it from now on.
   */
  refresh(agent: identityV1.Agent): void {
    const at = time(agent.updatedAt);
    if ((this.seen.get(agent.agentId) ?? -Infinity) < at) {
      this.seen.delete(agent.agentId);
      const oldest = this.seen.size >= this.maxEntries ? this.seen.keys().next().value : undefined;
      if (oldest !== undefined) this.seen.delete(oldest);
      this.seen.set(agent.agentId, at);
    }
    if (this.entries.has(agent.agentId)) this.store(agent.agentId, agent);
  }

  /** Forgets the agent (an identity event says it changed); a lookup in flight stays, as it may predate the change only by its own round trip. */
  invalidate(agentId: string): void {
    this.entries.delete(agentId);
  }

  get size(): number {
    return this.entries.size;
  }

  private async load(agentId: string, opts: CallOptions): Promise<identityV1.Agent | null> {
    try {
      const agent = (await this.lookup(agentId, opts)) ?? null;
      this.store(agentId, agent);
      return agent;
    } catch (err) {
      if ((err as { code?: unknown }).code === GrpcStatus.NOT_FOUND) {
        this.store(agentId, null);
        return null;
      }
      throw err;
    }
  }

  private store(agentId: string, agent: identityV1.Agent | null): void {
    if (this.ttlMs <= 0) return;
    const now = this.now();
    const current = this.entries.get(agentId);
    // An answer that left identity before a change must not replace the change (a freeze or a
    // revocation stored by the gateway that made it): every change moves updatedAt forward, and
    // agents are never deleted, so "unknown" never replaces a known agent either.
    if (current?.agent && current.expiresAt > now && (agent === null || time(agent.updatedAt) < time(current.agent.updatedAt))) return;
    const seen = this.seen.get(agentId);
    if (seen !== undefined && (agent === null || time(agent.updatedAt) < seen)) return;
    this.entries.delete(agentId);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(agentId, { agent, storedAt: now, expiresAt: now + this.ttlMs });
  }
}

const time = (at: Date | undefined): number => at?.getTime() ?? 0;
