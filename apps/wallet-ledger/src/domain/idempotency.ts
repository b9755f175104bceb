import { canonicalize, sha256Hex } from '@exchange/crypto';
import { walletErrors } from './wallet.errors';

/** How long a key and its outcome are kept (DESIGN §3). */
export const IDEMPOTENCY_TTL_DAYS = 30;

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/** Missing → idempotency_key_required; not 1-255 printable ASCII → invalid_idempotency_key. */
export function requireIdempotencyKey(key: string | undefined): string {
  if (key === undefined || key === '') throw walletErrors.idempotencyKeyRequired();
  if (!PRINTABLE_ASCII.test(key)) throw walletErrors.invalidIdempotencyKey();
  return key;
}

/** For requests where the key is optional: undefined when absent, else validated. */
export function optionalIdempotencyKey(key: string | undefined): string | undefined {
  return key === undefined || key === '' ? undefined : requireIdempotencyKey(key);
}

/**
 * sha256 hex of the canonical JSON of {operation, ...request fields except the key}. `request`
 * is the request's proto3 JSON form, which omits default values, so an absent field and its
 * default give the same fingerprint.
 */
export function requestFingerprint(operation: string, request: Record<string, unknown>): string {
  const fields: Record<string, unknown> = { ...request };
  delete fields['idempotencyKey'];
  delete fields['idempotency_key'];
  return sha256Hex(canonicalize({ ...fields, operation }));
}
