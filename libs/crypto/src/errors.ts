/** Malformed key, signature or encoding handed to a crypto helper. */
export class CryptoFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CryptoFormatError';
  }
}

/** A value that legacy v1 canonical JSON cannot represent (undefined, bigint, NaN, cycles…). */
export class CanonicalizationError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} at ${path}`);
    this.name = 'CanonicalizationError';
  }
}
