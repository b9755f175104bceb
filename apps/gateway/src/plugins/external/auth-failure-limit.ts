import type { FastifyInstance, FastifyRequest } from 'fastify';

// Failed authentication counts against the client IP (DESIGN §3), never against the agent a
// request claims to be: guessing operator tokens or forging signatures naming a victim costs the
// guesser's IP its budget, not the victim's. The count is read before any work (token compare,
// identity call) and raised only when authentication failed. Same store as the other limits
// (memory, or Redis shared by replicas; Redis unreachable → not counted, like every limit).

export interface AuthFailureLimiter {
  readonly max: number;
  readonly windowMs: number;
  /** Seconds to wait when the IP already failed `max` times in this window, else null. */
  retryAfter(request: FastifyRequest): Promise<number | null>;
  /** Counts one failed authentication against the request's IP. */
  record(request: FastifyRequest): Promise<void>;
}

export function authFailureLimiter(fastify: FastifyInstance, opts: { max: number; windowMs: number }): AuthFailureLimiter {
  const counter = fastify.createRateLimit({
    max: opts.max,
    timeWindow: opts.windowMs,
    keyGenerator: (request: FastifyRequest) => `auth-failures:ip:${request.ip}`,
  });
  return {
    max: opts.max,
    windowMs: opts.windowMs,
    async retryAfter(request) {
      const state = await counter(request, { increment: false });
      if (state.isAllowed || state.remaining > 0 || state.ttl <= 0) return null;
      return Math.max(1, state.ttlInSeconds);
    },
    async record(request) {
      await counter(request);
    },
  };
}
