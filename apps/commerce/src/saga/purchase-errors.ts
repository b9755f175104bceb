import { Metadata, status } from '@grpc/grpc-js';
import { DomainError, ERROR_CODE_METADATA, errorInfoFromGrpc, errors, type GrpcErrorInfo } from '@exchange/platform';
import type { UcpMessage } from '../domain/ucp-types';

// How the saga reads a collaborator's failure, and the errors its caller gets.

/**
 * A failure after which the step's outcome is unknown or may change by itself: no x-error-code
 * (connection refused, deadline) or an UNAVAILABLE/DEADLINE_EXCEEDED answer (identity_unavailable,
 * read_only…). The step stays where it is and is repeated with the same key later.
 */
export function isTransient(err: unknown): boolean {
  if (err instanceof DomainError) return err.grpcCode === status.UNAVAILABLE || err.grpcCode === status.DEADLINE_EXCEEDED;
  const metadata = (err as { metadata?: unknown })?.metadata;
  const code = metadata instanceof Metadata ? metadata.get(ERROR_CODE_METADATA)[0] : undefined;
  if (typeof code !== 'string' || code === '') return true;
  const grpcCode = (err as { code?: number }).code;
  return grpcCode === status.UNAVAILABLE || grpcCode === status.DEADLINE_EXCEEDED;
}

/** A collaborator's definite refusal as our own DomainError (same code, status and details: e.g. 409 insufficient_funds). */
export function refusalOf(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const info: GrpcErrorInfo = errorInfoFromGrpc(err);
  return new DomainError(info.grpcCode, info.code, info.message, info.details);
}

export function walletUnavailable(): DomainError {
  return errors.unavailable('wallet_unavailable', 'wallet-ledger did not answer; the purchase is finished later: retry the complete or read the session');
}

/** What the buyer is told when the merchant did not complete (the hold is released or being released). */
export function merchantFailure(
  code: 'checkout_not_ready' | 'merchant_protocol_error' | 'merchant_unavailable' | 'merchant_timeout',
  reason: string,
  messages: UcpMessage[] = [],
  merchantStatus?: string,
): DomainError {
  switch (code) {
    case 'checkout_not_ready':
      return errors.failedPrecondition('checkout_not_ready', `the merchant did not complete the checkout (${reason}); the hold was released`, {
        ...(merchantStatus ? { status: merchantStatus } : {}),
        messages,
        failure_reason: reason,
      });
    case 'merchant_protocol_error':
      return new DomainError(status.UNAVAILABLE, code, `the merchant answered outside the UCP protocol (${reason}); the hold was released`, { failure_reason: reason });
    case 'merchant_unavailable':
      return new DomainError(status.UNAVAILABLE, code, `the merchant could not be reached (${reason}); the hold was released`, { failure_reason: reason });
    case 'merchant_timeout':
      return new DomainError(status.DEADLINE_EXCEEDED, code, 'the merchant did not answer in time; the hold was released', { failure_reason: reason });
  }
}

/** The merchant is still completing: the hold stays and the recovery worker finishes the purchase. */
export function merchantStillCompleting(): DomainError {
  return new DomainError(status.DEADLINE_EXCEEDED, 'merchant_timeout', 'the merchant is still completing the checkout; the purchase finishes on its own (read the session later)', {
    status: 'complete_in_progress',
  });
}
