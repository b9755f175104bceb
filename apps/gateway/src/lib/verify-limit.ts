import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problem } from '../plugins/app/problem';

// The stateless casefile verifiers are public and do real work per request (gunzip, tar, hashing):
// anonymous callers get their own, tighter budget per IP (DESIGN §3), shared by POST
// /v1/casefiles/verify and POST /ui/casefile/verify, on top of the gateway's general limits.
// Authenticated callers are counted by the general limits only.

export interface VerifyLimit {
  /** Anonymous verifications per IP per window. */
  max: number;
  windowMs: number;
}

/** A preHandler-style check: 429 `rate_limited` with Retry-After past the budget. */
export function anonymousVerifyLimiter(fastify: FastifyInstance, limit: VerifyLimit) {
  const count = fastify.createRateLimit({
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request: FastifyRequest) => `casefile-verify:ip:${request.ip}`,
  });
  return async (request: FastifyRequest): Promise<void> => {
    if (request.auth.kind !== 'anonymous') return;
    const res = await count(request);
    if (res.isAllowed || !res.isExceeded) return;
    const retry = String(Math.max(1, res.ttlInSeconds));
    throw problem(429, 'rate_limited', `anonymous casefile verification is limited to ${res.max} per ${Math.round(limit.windowMs / 1000)} s per IP; retry in ${retry} s`, {
      headers: { 'retry-after': retry, 'ratelimit-limit': String(res.max), 'ratelimit-remaining': '0', 'ratelimit-reset': retry },
    });
  };
}
