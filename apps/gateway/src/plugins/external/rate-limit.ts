import rateLimit from '@fastify/rate-limit';
import { identityV1 } from '@exchange/proto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { problem } from '../app/problem';

// Per-minute limits (DESIGN §3 "Rate limits"): per acting agent by identity level, else per
// operator token (hashed), else per IP. The hook runs at preValidation, after auth has decided
// who is calling; the agent's level comes from the agent cache (≤ AGENT_CACHE_TTL_MS stale).
// Counters live in memory, or in Redis when REDIS_URL is set so replicas share them. When
// Redis is unreachable requests are let through (fail open) and the error is logged.

export interface RateLimits {
  windowMs: number;
  anonymous: number;
  operator: number;
  byLevel: Record<identityV1.IdentityLevel, number>;
}

export interface RateLimitOptions {
  limits: RateLimits;
  redisUrl?: string;
  redisPrefix: string;
}

const limitFor = Symbol('rateLimitMax');
type WithLimit = FastifyRequest & { [limitFor]?: number };

async function keyAndLimit(request: FastifyRequest, limits: RateLimits): Promise<string> {
  const auth = request.auth;
  let max = limits.anonymous;
  let key = auth?.rateKey ?? `ip:${request.ip}`;
  if (auth?.actingAgentId) {
    const agent = auth.agent ?? (await request.server.agentCache.get(auth.actingAgentId, auth.callOptions));
    const level = agent?.identityLevel ?? identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED;
    max = limits.byLevel[level] ?? limits.byLevel[identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED];
    key = `agent:${auth.actingAgentId}`;
  } else if (auth?.kind === 'operator') {
    max = limits.operator;
  }
  (request as WithLimit)[limitFor] = max;
  return key;
}

export default fp<RateLimitOptions>(
  async (fastify, opts) => {
    const { limits } = opts;
    let redis: Redis | undefined;
    if (opts.redisUrl) {
      redis = new Redis(opts.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, lazyConnect: false });
      redis.on('error', (err) => fastify.log.warn({ err: { message: err.message } }, 'rate-limit redis error'));
      fastify.addHook('onClose', async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
    }
    await fastify.register(rateLimit, {
      global: true,
      hook: 'preValidation',
      timeWindow: limits.windowMs,
      keyGenerator: (request) => keyAndLimit(request, limits),
      max: async (request) => (request as WithLimit)[limitFor] ?? limits.anonymous,
      enableDraftSpec: true,
      skipOnError: true,
      ...(redis ? { redis, nameSpace: opts.redisPrefix } : {}),
      errorResponseBuilder: (_request, context) =>
        problem(429, 'rate_limited', `rate limit of ${context.max} requests per ${Math.round(limits.windowMs / 1000)} s exceeded; retry in ${context.after}`),
    });
  },
  { name: 'rate-limit' },
);
