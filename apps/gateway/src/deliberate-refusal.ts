import type { FastifyRequest } from 'fastify';
import { HttpProblem, type ProblemInit } from './plugins/app/problem';

// A 5xx the exchange answers on purpose — read-only mode, a kill switch (whether the gateway's
// guard or a service said so), the gateway shutting down — is no failure: logged at info by its
// code, without a stack, and its request line too. Every other 5xx is a failure (warn/error).

const refused = new WeakSet<FastifyRequest>();

export function isDeliberateRefusal(error: unknown, problem: ProblemInit): boolean {
  if (problem.code === 'read_only' || problem.code.startsWith('kill_switch:')) return true;
  return error instanceof HttpProblem && error.problem.deliberate === true;
}

/** Remembers that this request's answer was a deliberate refusal (for its request line). */
export function markDeliberateRefusal(request: FastifyRequest): void {
  refused.add(request);
}

export function wasDeliberateRefusal(request: FastifyRequest): boolean {
  return refused.has(request);
}
