import type { FastifyRequest } from 'fastify';

// A 5xx the exchange answers on purpose — read-only mode, a kill switch (whether the gateway's
// guard or a service said so: error-mapping.ts), the gateway shutting down — carries
// `deliberate` in its problem from where it is made. It is no failure: logged at info by its
// code, without a stack, and its request line too. Every other 5xx is a failure (warn/error).

const refused = new WeakSet<FastifyRequest>();

/** Remembers that this request's answer was a deliberate refusal (for its request line). */
export function markDeliberateRefusal(request: FastifyRequest): void {
  refused.add(request);
}

export function wasDeliberateRefusal(request: FastifyRequest): boolean {
  return refused.has(request);
}
