import type { EventBus } from '@exchange/events';
import { AgentCache } from '@exchange/identity-client';
import type { CallOptions } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import fp from 'fastify-plugin';

// The agent cache of the rate-limit tier, the frozen check and local signature verification:
// identity-client's AgentCache over the gateway's identity channel, AGENT_CACHE_TTL_MS (staleness:
// see there). With an event bus (NATS_URL, or the all-in-one launcher's own), every identity agent
// event (registered, level changed, key revoked, frozen, unfrozen) replaces a cached agent by the
// one it carries at once, so a change made around this gateway (another replica, identity
// directly) is seen without waiting for the TTL; an older answer never replaces it (updatedAt),
// and an agent not cached stays out (a replayed old event brings nothing back). The bus's live
// fan-out (`listen`) gives every replica every event; a shared durable would give each to one.

const IDENTITY_AGENT_EVENTS = 'exchange.identity.agent.*';

declare module 'fastify' {
  interface FastifyInstance {
    agentCache: AgentCache;
    /**
     * The cached agent when identity's answer is at most AGENT_KEY_CACHE_TTL_MS old (undefined
     * otherwise, and always with 0): what local signature checks and GET /v1/agents/{id} trust.
     */
    recentAgent(agentId: string): identityV1.Agent | undefined;
    /** Identity's GetAgent for reads `recentAgent` cannot answer, cached; concurrent reads within the key TTL share a call (AgentCache.read). */
    readAgent(agentId: string, opts: CallOptions): Promise<identityV1.Agent | undefined>;
  }
}

export interface AgentCacheOptions {
  ttlMs: number;
  /** AGENT_KEY_CACHE_TTL_MS: how old an entry `recentAgent` still answers (0: never). */
  keyTtlMs?: number;
  events?: EventBus;
}

export default fp<AgentCacheOptions>(
  async (fastify, opts) => {
    const { identity } = fastify;
    const cache = AgentCache.of(identity, opts.ttlMs);
    fastify.decorate('agentCache', cache);
    const keyTtlMs = opts.keyTtlMs ?? 0;
    fastify.decorate('recentAgent', (agentId: string) => (keyTtlMs > 0 ? cache.peek(agentId, keyTtlMs) : undefined));
    fastify.decorate('readAgent', (agentId: string, callOptions: CallOptions) => cache.read(agentId, callOptions, keyTtlMs));
    if (opts.events) {
      const subscription = await opts.events.listen({
        subjects: [IDENTITY_AGENT_EVENTS],
        handler: async (event) => {
          const data = event.data as { agent?: unknown } | null;
          if (data?.agent) cache.refresh(identityV1.Agent.fromJSON(data.agent));
          else cache.invalidate(event.subject_id); // every agent event carries the agent today; one that does not still drops the stale entry
        },
      });
      fastify.addHook('onClose', async () => subscription.stop());
    }
  },
  { name: 'agent-cache', dependencies: ['grpc-clients'] },
);
