// JSON text the fuzzer sends. JSON.stringify cannot write what a hostile client writes (numbers
// past float range, 5,000 levels of nesting without recursing, duplicate keys, bare NaN), so a
// value may hold RawJson tokens that are copied into the text as they are.

/** A piece of JSON text written verbatim (possibly not valid JSON on purpose). */
export class RawJson {
  constructor(readonly text: string) {}
}

export const raw = (text: string) => new RawJson(text);

/** Serializes plain JSON values and RawJson tokens; keys are written in insertion order. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (typeof value === 'object') {
    // Object.keys sees an own `__proto__` key (set with defineProperty), so it is sent too.
    const parts = Object.keys(value).map((k) => `${JSON.stringify(k)}:${toJsonText((value as Record<string, unknown>)[k])}`);
    return `{${parts.join(',')}}`;
  }
  return 'null';
}

/** `depth` nested arrays or objects around `inner`, built iteratively (no recursion). */
export function deeplyNested(depth: number, shape: 'array' | 'object', inner = '1'): RawJson {
  const open = shape === 'array' ? '[' : '{"a":';
  const close = shape === 'array' ? ']' : '}';
  return raw(open.repeat(depth) + inner + close.repeat(depth));
}

/** An object whose key appears twice (JSON.parse keeps the last; some parsers the first). */
export function duplicateKeyObject(key: string, first: unknown, second: unknown): RawJson {
  return raw(`{${JSON.stringify(key)}:${toJsonText(first)},${JSON.stringify(key)}:${toJsonText(second)}}`);
}

/** Sets `key` as an own enumerable property, even `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy that keeps RawJson tokens and own `__proto__` keys. */
export function cloneJson<T>(value: T): T {
  if (value instanceof RawJson || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) setOwn(out, k, cloneJson((value as Record<string, unknown>)[k]));
  return out as T;
}
