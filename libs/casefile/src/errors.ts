/** The archive cannot be read as a casefile (not gzip, not tar, no docket.json, unsafe or too big). */
export class CasefileUnreadableError extends Error {
  readonly code = 'casefile_unreadable';
  constructor(message: string) {
    super(message);
    this.name = 'CasefileUnreadableError';
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
