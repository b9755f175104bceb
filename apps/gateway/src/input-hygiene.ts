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
 * schema'd part of every request.
 */
export function findUnacceptable(value: unknown, pointer = ''): UnacceptableValue | null {
  if (typeof value === 'string') return value.includes('\u0000') ? { pointer, keyword: 'nul', message: NUL_MESSAGE } : null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : { pointer, keyword: 'finite', message: FINITE_MESSAGE };
  // Raw bodies (archives, octet streams) are bytes, not strings: NUL is data there.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnacceptable(value[i], `${pointer}/${i}`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return { pointer: `${pointer}/${escapePointerToken(key)}`, keyword: 'nul', message: NUL_MESSAGE };
      const found = findUnacceptable(item, `${pointer}/${escapePointerToken(key)}`);
      if (found) return found;
    }
  }
  return null;
}
