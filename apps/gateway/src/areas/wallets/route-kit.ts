import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { problemResponses, SECURITY } from '../../schemas/common';
import { IDEMPOTENCY_HEADER, resolveIdempotencyKey } from '../../lib/idempotency';

// What every Wallets route shares: tag, auth, error responses, the idempotency key of a request.

export const WALLET_TAGS = ['Wallets'];

/** The wallet owner (path `agent_id`), or the operator: agent-signed requests only for their own wallet. */
export const OWNER_OR_OPERATOR: FastifyContextConfig = { auth: 'operator_or_agent', agentSelfParam: 'agent_id' };
export const OPERATOR_ONLY: FastifyContextConfig = { auth: 'operator' };

export const READ_ERRORS = problemResponses(400, 401, 403, 404, 429, 503, 504);
/** 403 covers caps, limits, levels and frozen agents; 409 insufficient funds, states and in-flight keys; 422 reused keys. */
export const MUTATION_ERRORS = problemResponses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503, 504);

/** Every wallet read answers an agent identity does not know like the balance does. */
export const UNKNOWN_WALLET_NOTE = 'The wallet owner (agent-signed) or an operator. An unknown agent is 404 `agent_not_found` (not an empty page).';

export const IDEMPOTENCY_NOTE =
  'Requires an idempotency key (body `idempotency_key` or header `Idempotency-Key`); a replay answers the first ' +
  'outcome again with `Idempotent-Replayed: true`.';

export { SECURITY };

/** The key of a wallet request (see idempotency.ts); "" when optional and absent. */
export function idempotencyKeyOf(request: FastifyRequest, required: boolean): string {
  const body = request.body as { idempotency_key?: string } | undefined;
  return resolveIdempotencyKey({ bodyKey: body?.idempotency_key, headerKey: request.headers[IDEMPOTENCY_HEADER], required });
}
