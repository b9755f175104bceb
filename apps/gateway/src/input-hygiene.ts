import { escapePointerToken } from './lib/json-pointer';

// Input hygiene shared by every route (DESIGN §3): JSON nesting is bounded while the body is
// parsed (recursive code further on — canonical JSON, casefile walks — would otherwise overflow
// the stack), no string a client sends may hold NUL (PostgreSQL refuses it in text, so it
// could only end as a 500), and no number may be beyond what a 64-bit float holds (parsed as
// Infinity, which nothing downstream can carry).

/** Deepest JSON nesting accepted anywhere (objects and arrays count one level each). */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * The deepest nesting of the JSON text in `bytes`, counted without parsing it; stops counting
 * once `limit` is passed (returns limit + 1). Brackets inside strings do not count. The text need
 * not be valid JSON: the parser that runs afterwards judges that.
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
      continue;
    }
    if (b === QUOTE) inString = true;
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** A value no service can take, named by JSON pointer, with what is wrong with it. */
export interface UnacceptableValue {
  /** JSON pointer of the value (or of the object whose key holds NUL). */
  pointer: string;
  keyword: 'nul' | 'finite';
  message: string;
}

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
// JSON.parse turns a number beyond ±1.7976931348623157e308 (1e400, 400 digits) into ±Infinity,
// which canonical JSON, JSON.stringify (null) and PostgreSQL cannot carry.
const FINITE_MESSAGE = 'must be a number a 64-bit float can hold (within ±1.7976931348623157e308)';

/**
 * The first string (value or object key) holding U+0000, or number that is not finite, in a
 * parsed value; null when there is none (binary bodies are skipped). One walk for both, on every
 * schema'd part of every request; the pointer is built only for what is found (building one per
 * value made the walk over a 50,000-key body twice as slow as parsing it).
 */
export function findUnacceptable(value: unknown): UnacceptableValue | null {
  const trail: string[] = [];
  const keyword = unacceptableIn(value, trail);
  if (keyword === null) return null;
  const pointer = trail.reverse().map((token) => `/${escapePointerToken(token)}`).join('');
  return { pointer, keyword, message: keyword === 'nul' ? NUL_MESSAGE : FINITE_MESSAGE };
}

/** What is wrong, if anything, with `value` or inside it; the tokens leading to it pushed on `trail`, innermost first. */
function unacceptableIn(value: unknown, trail: string[]): UnacceptableValue['keyword'] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? 'nul' : null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'finite';
  // Raw bodies (archives, octet streams) are bytes, not strings: NUL is data there.
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unacceptableIn(value[i], trail);
      if (found !== null) {
        trail.push(String(i));
        return found;
      }
    }
    return null;
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const found = key.includes('\u0000') ? 'nul' : unacceptableIn(object[key], trail);
    if (found !== null) {
      trail.push(key);
      return found;
    }
  }
  return null;
}
