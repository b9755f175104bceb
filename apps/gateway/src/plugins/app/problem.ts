import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import type { ProblemInit } from './problem-init';
import { withValidationErrors } from './validation-problem';

export type { ProblemInit, ValidationErrorItem } from './problem-init';

// RFC 9457 problem details: the one error body of the whole API (DESIGN §3).

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';
export const PROBLEM_TYPE_BASE = 'https://agent-exchange.dev/errors/';

/** An error that already knows its problem; thrown by hooks (auth, limits) and routes. */
export class HttpProblem extends Error {
  constructor(readonly problem: ProblemInit) {
    super(problem.detail);
    this.name = 'HttpProblem';
  }
}

export const problem = (status: number, code: string, detail: string, more: Omit<ProblemInit, 'status' | 'code' | 'detail'> = {}) =>
  new HttpProblem({ status, code, detail, ...more });

const RESERVED = new Set(['type', 'title', 'status', 'detail', 'code', 'request_id', 'errors']);

export function problemBody(given: ProblemInit, requestId: string): Record<string, unknown> {
  // Every validation_failed leaves with errors[] (validation-problem.ts), whichever layer raised it.
  const init = withValidationErrors(given);
  const body: Record<string, unknown> = {
    type: PROBLEM_TYPE_BASE + init.code,
    title: STATUS_CODES[init.status] ?? 'Error',
    status: init.status,
    detail: init.detail,
    code: init.code,
    request_id: requestId,
  };
  if (init.errors) body.errors = init.errors;
  if (init.extras) {
    for (const [key, value] of Object.entries(init.extras)) {
      if (!RESERVED.has(key) && value !== undefined) body[key] = value;
    }
  }
  return body;
}

const serializeProblem = (payload: unknown) => JSON.stringify(payload);

function sendProblem(this: FastifyReply, init: ProblemInit): FastifyReply {
  if (init.headers) this.headers(init.headers);
  // The body is serialized here, not by the route's response schema, so extension members survive.
  return this.code(init.status)
    .type(PROBLEM_CONTENT_TYPE)
    .serializer(serializeProblem)
    .send(problemBody(init, (this.request as FastifyRequest).id));
}

declare module 'fastify' {
  interface FastifyReply {
    sendProblem(init: ProblemInit): FastifyReply;
  }
}

export default fp(
  async (fastify) => {
    fastify.decorateReply('sendProblem', sendProblem);
  },
  { name: 'problem' },
);
