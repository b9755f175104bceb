import { DomainError, ERROR_CODE_METADATA, errorInfoFromGrpc, errors, type GrpcErrorInfo } from '@exchange/platform';
import { Metadata } from '@grpc/grpc-js';

/**
 * A definite answer from wallet-ledger: the failure carries an x-error-code (insufficient_funds,
 * kill_switch:settlements, agent_frozen…). Without one (connection refused, deadline passed) we
 * do not know whether the call took effect: the step stays pending and replays with its key.
 */
export function isDefiniteFailure(err: unknown): boolean {
  if (err instanceof DomainError) return true;
  const metadata = (err as { metadata?: unknown })?.metadata;
  if (!(metadata instanceof Metadata)) return false;
  const code = metadata.get(ERROR_CODE_METADATA)[0];
  return typeof code === 'string' && code !== '';
}

/** The wallet's refusal given back to our caller with its own code and status (e.g. 409 insufficient_funds). */
export function asDomainError(info: GrpcErrorInfo): DomainError {
  return new DomainError(info.grpcCode, info.code, info.message, info.details);
}

export function walletUnavailable(): DomainError {
  return errors.unavailable('wallet_unavailable', 'wallet-ledger did not answer; the operation will be completed later');
}

export { errorInfoFromGrpc };
