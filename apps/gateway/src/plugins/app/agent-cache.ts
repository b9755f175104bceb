import { AgentCache } from '@exchange/identity-client';
import fp from 'fastify-plugin';

// The agent level/status cache of the rate-limit tier and the frozen check: identity-client's
// AgentCache over the gateway's identity channel, AGENT_CACHE_TTL_MS (staleness: see there).

declare module 'fastify' {
  interface FastifyInstance {
    agentCache: AgentCache;
  }
}

export default fp<{ ttlMs: number }>(
  async (fastify, opts) => {
    const { identity } = fastify;
    const cache = AgentCache.of(identity, opts.ttlMs);
    fastify.decorate('agentCache', cache);
  },
  { name: 'agent-cache', dependencies: ['grpc-clients'] },
);
