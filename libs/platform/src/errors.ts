import { status } from '@grpc/grpc-js';

/** Trailing metadata key carrying the stable problem code of a failed call. */
export const ERROR_CODE_METADATA = 'x-error-code';
/** Binary trailing metadata key carrying the UTF-8 JSON details of a failed call (they may echo input). */
export const ERROR_DETAILS_METADATA = 'x-error-details-bin';
/** Trailing metadata key ("true") set when a failure is the stored outcome of an idempotent replay. */
export const ERROR_REPLAYED_METADATA = 'x-idempotent-replayed';

/**
 * An expected, client-visible failure. It carries a stable problem `code` (snake_case, used by
 * the gateway's problem JSON) and a gRPC status, never an HTTP number: the gateway owns that map.
 */
export class DomainError extends Error {
  /** True when this is a stored outcome given again for a repeated idempotency key. */
  replayed = false;

  constructor(
    readonly grpcCode: status,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** The same failure, marked as an idempotent replay (the gateway adds `Idempotent-Replayed: true`). */
  asReplay(): DomainError {
    const copy = new DomainError(this.grpcCode, this.code, this.message, this.details);
    copy.replayed = true;
    return copy;
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}

type Details = Record<string, unknown>;

export const errors = {
  invalidArgument: (code: string, message: string, details?: Details) =>
    new DomainError(status.INVALID_ARGUMENT, code, message, details),
  notFound: (entity: string, id: string) =>
    new DomainError(status.NOT_FOUND, `${entity}_not_found`, `${entity} ${id} not found`),
  alreadyExists: (code: string, message: string, details?: Details) =>
    new DomainError(status.ALREADY_EXISTS, code, message, details),
  failedPrecondition: (code: string, message: string, details?: Details) =>
    new DomainError(status.FAILED_PRECONDITION, code, message, details),
  invalidState: (entity: string, current: string, wanted: string) =>
    new DomainError(status.FAILED_PRECONDITION, 'invalid_state', `${entity} is ${current}, cannot become ${wanted}`, {
      current,
      wanted,
    }),
  permissionDenied: (code: string, message: string, details?: Details) =>
    new DomainError(status.PERMISSION_DENIED, code, message, details),
  unauthenticated: (code: string, message: string) => new DomainError(status.UNAUTHENTICATED, code, message),
  resourceExhausted: (code: string, message: string, details?: Details) =>
    new DomainError(status.RESOURCE_EXHAUSTED, code, message, details),
  unavailable: (code: string, message: string) => new DomainError(status.UNAVAILABLE, code, message),
  aborted: (code: string, message: string) => new DomainError(status.ABORTED, code, message),
};
