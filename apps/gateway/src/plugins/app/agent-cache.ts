import fp from 'fastify-plugin';
import { AgentCache } from '../../cache/agent-cache';

declare module 'fastify' {
  interface FastifyInstance {
    agentCache: AgentCache;
  }
}

export default fp<{ ttlMs: number }>(
  async (fastify, opts) => {
    const { identity } = fastify;
    const cache = new AgentCache(async (agentId, callOpts) => (await identity.getAgent({ agentId }, callOpts)).agent, opts.ttlMs);
    fastify.decorate('agentCache', cache);
  },
  { name: 'agent-cache', dependencies: ['grpc-clients'] },
);
