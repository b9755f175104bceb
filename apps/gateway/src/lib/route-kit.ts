import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import { problemResponses, SECURITY } from '../schemas/common';
import { IDEMPOTENCY_HEADER, markReplayed, resolveIdempotencyKey } from './idempotency';

// What every market route shares (Contracts, Listings, Offers, Results, Disputes, Verification):
// auth modes, error responses and the optional idempotency key.

/** Agent-signed requests act as themselves; the market checks that the acting agent is the party. */
export const AGENT_OR_OPERATOR: FastifyContextConfig = { auth: 'operator_or_agent' };
/** Award and dispute resolution. */
export const OPERATOR_ONLY: FastifyContextConfig = { auth: 'operator' };

export const READ_ERRORS = problemResponses(400, 401, 403, 404, 429, 503, 504);
/** 403 party/permission checks and frozen agents; 409 states and funds; 422 reused keys; 503 wallet unavailable. */
export const MUTATION_ERRORS = problemResponses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503, 504);

export const PARTY_ERRORS =
  'The party field defaults to the acting agent (400 `validation_failed` when there is none); another agent than the ' +
  'acting one is 403 `acting_agent_mismatch`; an unknown party is 404 `agent_not_found`, a frozen one 403 `agent_frozen`.';

export const IDEMPOTENCY_NOTE =
  'Optional idempotency key (body `idempotency_key` or header `Idempotency-Key`): a replay answers the first outcome again ' +
  'with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`.';

export const STATE_NOTE = 'A move the contract’s state does not allow is 409 `invalid_state` with `current` and `wanted`.';

export { SECURITY };

/** The request's optional key ("" = none); body and header must agree when both are sent. */
export function marketKeyOf(request: FastifyRequest): string {
  const body = request.body as { idempotency_key?: string } | undefined;
  return resolveIdempotencyKey({ bodyKey: body?.idempotency_key, headerKey: request.headers[IDEMPOTENCY_HEADER], required: false });
}

export function replayed(reply: FastifyReply, res: { idempotentReplayed?: boolean }): void {
  markReplayed(reply, res.idempotentReplayed);
}
