import rateLimit from '@fastify/rate-limit';
import { OutageLatch } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { problem } from '../app/problem';
import { authFailureLimiter, type AuthFailureLimiter } from './auth-failure-limit';

// Per-minute limits (DESIGN §3 "Rate limits"): per acting agent by identity level, else per
// operator token (hashed), else per IP. The hook runs at preValidation on each route, after the
// auth plugin's own preValidation verified the agent signature; the agent's level comes from the
// agent cache (≤ AGENT_CACHE_TTL_MS stale). A request whose signature has not verified yet
// (multipart uploads, verified once the body streamed) counts against the IP, never against the
// agent it names; it is counted against that agent once verified (`rateLimitVerifiedAgent`).
// Counters live in memory, or in Redis when REDIS_URL is set so replicas share them. When
// Redis is unreachable requests are let through (fail open) and the error is logged.

export interface RateLimits {
  windowMs: number;
  anonymous: number;
  operator: number;
  /** Failed authentications per IP per window (then 429 before any work). */
  authFailures: number;
  byLevel: Record<identityV1.IdentityLevel, number>;
}

export interface RateLimitOptions {
  limits: RateLimits;
  redisUrl?: string;
  redisPrefix: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The gateway's Redis (limits and seen nonces) with its key prefix; null without REDIS_URL. */
    gatewayRedis: { client: Redis; prefix: string } | null;
    authFailures: AuthFailureLimiter;
    /** Counts a request whose agent signature verified late against that agent: 429 when over. */
    rateLimitVerifiedAgent(request: FastifyRequest): Promise<void>;
  }
}

const limitFor = Symbol('rateLimitMax');
type WithLimit = FastifyRequest & { [limitFor]?: number };

async function keyAndLimit(request: FastifyRequest, limits: RateLimits): Promise<string> {
  const auth = request.auth;
  let max = limits.anonymous;
  let key = auth?.rateKey ?? `ip:${request.ip}`;
  if (auth?.kind === 'agent' && auth.signaturePending) {
    key = `ip:${request.ip}`; // unauthenticated so far: the IP's budget
  } else if (auth?.actingAgentId) {
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

/** Waits for the first connection (bounded): without an offline queue, earlier commands would fail. */
async function connected(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
  });
}

export function rateLimitedProblem(max: number, windowMs: number, retryAfterSeconds: number) {
  const retry = String(Math.max(1, retryAfterSeconds));
  return problem(429, 'rate_limited', `rate limit of ${max} requests per ${Math.round(windowMs / 1000)} s exceeded; retry in ${retry} s`, {
    headers: { 'retry-after': retry, 'ratelimit-limit': String(max), 'ratelimit-remaining': '0', 'ratelimit-reset': retry },
  });
}

export default fp<RateLimitOptions>(
  async (fastify, opts) => {
    const { limits } = opts;
    let redis: Redis | undefined;
    if (opts.redisUrl) {
      // No offline queue: while Redis is unreachable each command fails at once (limits fail
      // open, signed mutations are refused) instead of waiting for reconnection attempts.
      // Auto-pipelining: every request sends 2–3 commands (failure budget, limit, nonce); those
      // issued in one tick leave in one write, which was the gateway's largest syscall cost.
      redis = new Redis(opts.redisUrl, {
        connectTimeout: 500,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: false,
        enableAutoPipelining: true,
      });
      // ioredis reports every failed reconnection (every ~2 s while Redis is away): logged once
      // per outage, and once when it is back.
      const connection = new OutageLatch(
        (err) => fastify.log.warn({ err: (err as Error).message }, 'gateway redis unreachable: limits fail open, signed mutations refused'),
        () => fastify.log.info('gateway redis reachable again'),
      );
      redis.on('error', (err) => connection.fail(err));
      redis.on('ready', () => connection.ok());
      fastify.addHook('onClose', async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
      await connected(redis, 1000);
    }
    fastify.decorate('gatewayRedis', redis ? { client: redis, prefix: opts.redisPrefix } : null);
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

    fastify.decorate('authFailures', authFailureLimiter(fastify, { max: limits.authFailures, windowMs: limits.windowMs }));

    // The global limiter again, now keyed on the verified agent (same buckets as the hook).
    const countAgain = fastify.createRateLimit();
    fastify.decorate('rateLimitVerifiedAgent', async (request: FastifyRequest) => {
      const state = await countAgain(request);
      if (!state.isAllowed && state.isExceeded) throw rateLimitedProblem(state.max, limits.windowMs, state.ttlInSeconds);
    });
  },
  { name: 'rate-limit' },
);
