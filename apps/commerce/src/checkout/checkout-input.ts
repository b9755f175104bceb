import { errors } from '@exchange/platform';
import type { SessionMode } from './session.model';

// What a client sends about a cart, checked before anything is asked of the merchant. The UCP
// shape itself is validated against the request view by the merchant client; these are the
// platform's own bounds (and clear errors for JSON that is not even an array/object).

export const MAX_LINES = 100;
export const MAX_QUANTITY = 10_000;
export const MAX_DISCOUNT_CODES = 20;
const CODE_PATTERN = /^[\x21-\x7E]{1,64}$/;
const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

const payloadInvalid = (field: string, message: string) =>
  errors.invalidArgument('ucp_payload_invalid', `${field}: ${message}`, { errors: [{ path: field, message }] });

function parseJson(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw payloadInvalid(field, 'is not valid JSON');
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `line_items_json`: 1..100 lines of {item:{id}, quantity 1..10 000} (other UCP fields pass through). */
export function parseLineItems(text: string): Array<Record<string, unknown>> {
  const value = parseJson('line_items', text);
  if (!Array.isArray(value)) throw payloadInvalid('line_items', 'must be a JSON array');
  if (value.length === 0) throw payloadInvalid('line_items', 'must name at least one item');
  if (value.length > MAX_LINES) throw payloadInvalid('line_items', `at most ${MAX_LINES} lines`);
  value.forEach((line, i) => {
    const at = `line_items[${i}]`;
    if (!isObject(line)) throw payloadInvalid(at, 'must be an object');
    const item = line['item'];
    if (!isObject(item) || typeof item['id'] !== 'string' || item['id'].length === 0) throw payloadInvalid(`${at}.item.id`, 'must be a non-empty string');
    const q = line['quantity'];
    if (typeof q !== 'number' || !Number.isInteger(q) || q < 1 || q > MAX_QUANTITY) throw payloadInvalid(`${at}.quantity`, `must be an integer 1..${MAX_QUANTITY}`);
  });
  return value as Array<Record<string, unknown>>;
}

/** `buyer_json` / `context_json`: a JSON object when present. */
export function parseOptionalObject(field: string, text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  const value = parseJson(field, text);
  if (!isObject(value)) throw payloadInvalid(field, 'must be a JSON object');
  return value;
}

/** At most 20 codes of 1..64 printable characters (no spaces). */
export function checkDiscountCodes(codes: readonly string[]): string[] {
  if (codes.length > MAX_DISCOUNT_CODES) {
    throw errors.invalidArgument('validation_failed', `at most ${MAX_DISCOUNT_CODES} discount codes`, { field: 'discount_codes' });
  }
  codes.forEach((code, i) => {
    if (!CODE_PATTERN.test(code)) {
      throw errors.invalidArgument('validation_failed', 'a discount code is 1..64 printable characters without spaces', { field: `discount_codes[${i}]` });
    }
  });
  return [...codes];
}

export function checkMode(mode: SessionMode | undefined): SessionMode {
  return mode ?? 'live';
}

/** Empty = no idempotency; otherwise 1..255 printable ASCII (400 invalid_idempotency_key). */
export function checkIdempotencyKey(key: string): string | undefined {
  if (key === '') return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw errors.invalidArgument('invalid_idempotency_key', 'idempotency_key must be 1–255 printable ASCII characters');
  return key;
}

/** A non-empty id field (400 validation_failed naming it). */
export function requireId(field: string, value: string): string {
  if (value.length === 0 || value.length > 200) throw errors.invalidArgument('validation_failed', `${field} is required (at most 200 characters)`, { field });
  return value;
}
