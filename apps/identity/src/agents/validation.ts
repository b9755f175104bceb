import { errors, type DomainError } from '@exchange/platform';
import { fromBase64, fromBase64Url, isValidPublicKey, toBase64 } from '@exchange/crypto';

/** One problem with one request field; `pointer` is a JSON pointer into the REST body. */
export interface FieldError {
  pointer: string;
  message: string;
}

const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}:agent:[a-z0-9][a-z0-9._-]{0,62}$/;

/**
 * False for an id registration could not have accepted: it names no agent, so the data layer
 * answers "unknown" without asking PostgreSQL, which refuses some (a NUL byte) for the whole statement.
 */
export const canNameAgent = (agentId: string): boolean => AGENT_ID_PATTERN.test(agentId);
export const PUBLIC_KEY_BYTES = 32;
export const SIGNATURE_BYTES = 64;
export const REASON_MAX_LENGTH = 500;
/** GetAgents: ids per call (bounds the SQL array and the answer). */
export const AGENT_BATCH_MAX = 1000;

/** 400 `validation_failed`, carrying every field error so the gateway can list them in `errors[]`. */
export function validationFailed(fieldErrors: FieldError[]): DomainError {
  const first = fieldErrors[0];
  return errors.invalidArgument('validation_failed', `${first.pointer.slice(1)} ${first.message}`, { errors: fieldErrors });
}

/** Decoded length of standard padded base64, or null when the text is not such base64. */
export function base64ByteLength(value: string): number | null {
  try {
    return fromBase64(value).length;
  } catch {
    return null;
  }
}

/**
 * A 32-byte key (standard base64) that is a canonically encoded curve point of large order. Keys
 * without a proof (pubkey_set) need this; the primary key's proof already fails for such keys.
 */
export function isRegistrablePublicKey(value: string): boolean {
  try {
    return isValidPublicKey(fromBase64(value));
  } catch {
    return false;
  }
}

/**
 * A public key in its stored form (standard padded base64 of 32 bytes). Accepts base64url too,
 * because keys travel in URL paths; null when the value is not a 32-byte key in either form.
 */
export function normalizePublicKey(value: string): string | null {
  if (base64ByteLength(value) === PUBLIC_KEY_BYTES) return value;
  try {
    const bytes = fromBase64Url(value);
    return bytes.length === PUBLIC_KEY_BYTES ? toBase64(bytes) : null;
  } catch {
    return null;
  }
}

/** Operator reasons (level changes, revocations, freezes): 1–500 characters, not blank. */
export function reasonError(reason: string, pointer = '/reason'): FieldError | null {
  if (reason.trim() === '') return { pointer, message: 'is required' };
  if (reason.length > REASON_MAX_LENGTH) return { pointer, message: `must be at most ${REASON_MAX_LENGTH} characters` };
  return null;
}

export function assertReason(reason: string): void {
  const error = reasonError(reason);
  if (error) throw validationFailed([error]);
}
