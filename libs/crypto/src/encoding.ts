import { createHash } from 'node:crypto';
import { CryptoFormatError } from './errors';

export function sha256(data: Uint8Array | string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

/** Lowercase hex SHA-256, e.g. the `body_sha256` of a signed request (of "" when no body). */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Strict standard base64: padding required, no whitespace or url-safe characters, and unused
 * trailing bits must be zero (so each byte string has exactly one accepted spelling).
 * Buffer.from(…, 'base64') alone would silently skip junk.
 */
export function fromBase64(value: string): Uint8Array {
  if (typeof value !== 'string' || !BASE64.test(value)) throw new CryptoFormatError('invalid base64');
  const bytes = Buffer.from(value, 'base64');
  if (bytes.toString('base64') !== value) throw new CryptoFormatError('invalid base64 (non-canonical padding bits)');
  return new Uint8Array(bytes);
}

/** Strict base64url (RFC 4648 §5), padding optional; for keys that travel in URL paths. */
export function fromBase64Url(value: string): Uint8Array {
  const unpadded = typeof value === 'string' ? value.replace(/={1,2}$/, '') : '';
  if (typeof value !== 'string' || !BASE64URL.test(unpadded) || unpadded.length % 4 === 1) {
    throw new CryptoFormatError('invalid base64url');
  }
  const standard = unpadded.replace(/-/g, '+').replace(/_/g, '/');
  return fromBase64(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
}
