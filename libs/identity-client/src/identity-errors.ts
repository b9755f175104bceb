import { status } from '@grpc/grpc-js';
import { errorInfoFromGrpc, errors, type Logger } from '@exchange/platform';

/** 503 for any caller whose lookup identity did not answer (the cause is logged where it failed). */
export const identityUnavailable = () => errors.unavailable('identity_unavailable', 'identity service unavailable');

/**
 * What a failed GetAgent means to its caller: null when identity does not know the agent
 * (NOT_FOUND, or INVALID_ARGUMENT for a malformed id, which cannot exist), else the 503 to throw,
 * its cause logged here. One mapping for the cached and the batched (per-id fallback) lookups.
 */
export function lookupFailure(err: unknown, logger: Logger): null | Error {
  const info = errorInfoFromGrpc(err);
  if (info.grpcCode === status.NOT_FOUND || info.grpcCode === status.INVALID_ARGUMENT) return null;
  logger.warn({ err: info.message, code: info.code }, 'identity lookup failed');
  return identityUnavailable();
}
