import { status } from '@grpc/grpc-js';
import { errorInfoFromGrpc, errors, type Logger, type PromiseClient } from '@exchange/platform';
import type { identityV1 } from '@exchange/proto';

/** 503 for any caller whose lookup identity did not answer (the cause is logged where it failed). */
export const identityUnavailable = () => errors.unavailable('identity_unavailable', 'identity service unavailable');

/**
 * One GetAgent: the agent, null when identity does not know it (NOT_FOUND, or INVALID_ARGUMENT for
 * a malformed id, which cannot exist), else the 503 its caller gets, the cause logged here. Never
 * rejects (short of a throwing logger). One mapping for the cached lookup and the batcher's per-id
 * fallback.
 */
export async function getAgentOutcome(
  client: Pick<PromiseClient<typeof identityV1.IdentityServiceService>, 'getAgent'>,
  agentId: string,
  logger: Logger,
): Promise<identityV1.Agent | null | Error> {
  try {
    return (await client.getAgent({ agentId })).agent ?? null;
  } catch (err) {
    const info = errorInfoFromGrpc(err);
    if (info.grpcCode === status.NOT_FOUND || info.grpcCode === status.INVALID_ARGUMENT) return null;
    logger.warn({ err: info.message, code: info.code }, 'identity lookup failed');
    return identityUnavailable();
  }
}
