/** The archive cannot be read as a casefile (not gzip, not tar, no docket.json, unsafe names). */
export class CasefileUnreadableError extends Error {
  readonly code: string = 'casefile_unreadable';
  constructor(message: string) {
    super(message);
    this.name = 'CasefileUnreadableError';
  }
}

/**
 * The archive exceeds a reading limit (compressed or inflated bytes, members, docket.json size):
 * reading stopped there. A kind of unreadable archive, with its own code (HTTP 413).
 */
export class CasefileTooLargeError extends CasefileUnreadableError {
  override readonly code: string = 'payload_too_large';
  constructor(message: string) {
    super(message);
    this.name = 'CasefileTooLargeError';
  }
}

/** Bad input to a builder (signDocket, writeArchive): a programming error of the caller. */
export class CasefileInputError extends Error {
  readonly code = 'casefile_invalid_input';
  constructor(message: string) {
    super(message);
    this.name = 'CasefileInputError';
  }
}
