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

/** A GetAgent out: its start, and identity's answer as it comes (NOT_FOUND rejects). */
interface Lookup {
  startedAt: number;
  answer: Promise<identityV1.Agent | undefined>;
}

interface Entry {
  agent: identityV1.Agent | null;
  storedAt: number;
  expiresAt: number;
}

export class AgentCache {
  private readonly entries = new Map<string, Entry>();
  /** One lookup in flight per agent, shared by get() and read(); an identity event about the agent drops it (no one joins it after). */
  private readonly inFlight = new Map<string, Lookup>();
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
  async get(agentId: string, opts: CallOptions): Promise<identityV1.Agent | null> {
    const entry = this.entries.get(agentId);
    if (entry && entry.expiresAt > this.now()) return entry.agent;
    try {
      return (await this.lookUp(agentId, opts, Infinity)) ?? null;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /**
   * Identity's answer now, not the cached entry (GET /v1/agents/{id} once the key TTL passed):
   * the agent, or identity's error as it came (NOT_FOUND included); the answer is cached. Joins a
   * lookup in flight started at most `maxJoinAgeMs` ago (0: never), so concurrent reads of a hot
   * agent send one GetAgent, never one an identity event about the agent overtook.
   */
  read(agentId: string, opts: CallOptions, maxJoinAgeMs: number): Promise<identityV1.Agent | undefined> {
    return this.lookUp(agentId, opts, maxJoinAgeMs);
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
    this.inFlight.delete(agent.agentId);
    const at = time(agent.updatedAt);
    if ((this.seen.get(agent.agentId) ?? -Infinity) < at) setBounded(this.seen, agent.agentId, at, this.maxEntries);
    if (this.entries.has(agent.agentId)) this.store(agent.agentId, agent);
  }

  /**
   * Forgets the agent (an identity event says it changed). Later callers do not join the lookup in
   * flight; its answer, which may predate the change only by its own round trip, is still stored.
   */
  invalidate(agentId: string): void {
    this.entries.delete(agentId);
    this.inFlight.delete(agentId);
  }

  get size(): number {
    return this.entries.size;
  }

  private lookUp(agentId: string, opts: CallOptions, maxJoinAgeMs: number): Promise<identityV1.Agent | undefined> {
    const joined = this.inFlight.get(agentId);
    if (joined && maxJoinAgeMs > 0 && this.now() - joined.startedAt <= maxJoinAgeMs) return joined.answer;
    const answer = this.lookup(agentId, opts).then(
      (agent) => {
        this.store(agentId, agent ?? null);
        return agent;
      },
      (err: unknown) => {
        if (isNotFound(err)) this.store(agentId, null);
        throw err;
      },
    );
    const lookup: Lookup = { startedAt: this.now(), answer };
    this.inFlight.set(agentId, lookup);
    // Ends the entry only if it is still this lookup's (an event or a newer lookup may have replaced it).
    const done = () => {
      if (this.inFlight.get(agentId) === lookup) this.inFlight.delete(agentId);
    };
    answer.then(done, done);
    return answer;
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
    setBounded(this.entries, agentId, { agent, storedAt: now, expiresAt: now + this.ttlMs }, this.maxEntries);
  }
}

const time = (at: Date | undefined): number => at?.getTime() ?? 0;

const isNotFound = (err: unknown): boolean => (err as { code?: unknown }).code === GrpcStatus.NOT_FOUND;

/** Sets `key` as the newest entry; a full map drops its oldest (maps iterate in insertion order). */
function setBounded<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  const oldest = map.size >= max ? map.keys().next().value : undefined;
  if (oldest !== undefined) map.delete(oldest);
  map.set(key, value);
}
