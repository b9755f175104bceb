import { CanonicalizationError } from './errors';

/**
 * Canonical JSON "legacy v1" (DESIGN §3), used for every signature: object keys sorted by UTF-16
 * code units, no insignificant whitespace, strings and numbers printed exactly as JSON.stringify
 * prints them. This is RFC 8785 (JCS), numbers included: ES Number::toString is JCS §3.2.2.3
 * (1.0 → 1, 0.90 → 0.9), so a non-JS signer must print numbers that way (test/jcs-interop.spec.ts).
 *
 * Stricter than JSON.stringify, because a signer and a verifier must never disagree about what
 * was signed: undefined (anywhere, including object members), functions, symbols, bigint,
 * NaN/Infinity, cycles and non-plain objects (Map, Set, class instances) throw instead of being
 * dropped or turned into `null`/`{}`. Objects with `toJSON` (Date) are serialized through it,
 * as JSON.stringify does.
 */
export function canonicalize(value: unknown): string {
  return serialize(value, '', '$', []);
}

/** UTF-8 bytes of `canonicalize(value)`: what gets signed. */
export function canonicalBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalize(value));
}

function serialize(input: unknown, key: string, path: string, ancestors: object[]): string {
  let value = input;
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalizationError(`non-finite number ${value}`, path);
      // ES Number::toString, as RFC 8785 §3.2.2.3 requires; -0 prints as 0.
      return JSON.stringify(value);
    case 'undefined':
      throw new CanonicalizationError('undefined is not allowed', path);
    case 'bigint':
      throw new CanonicalizationError('bigint is not allowed (use a string)', path);
    case 'function':
    case 'symbol':
      throw new CanonicalizationError(`${typeof value} is not allowed`, path);
  }
  if (value === null) return 'null';
  const object = value as object;
  if (ancestors.includes(object)) throw new CanonicalizationError('cyclic structure', path);
  ancestors.push(object);
  try {
    if (Array.isArray(object)) {
      const parts: string[] = [];
      for (let i = 0; i < object.length; i++) parts.push(serialize(object[i], String(i), `${path}[${i}]`, ancestors));
      return `[${parts.join(',')}]`;
    }
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      throw new CanonicalizationError(`unsupported object type ${object.constructor?.name ?? 'unknown'}`, path);
    }
    const record = object as Record<string, unknown>;
    // Default sort compares UTF-16 code units, which is exactly the order RFC 8785 §3.2.3 asks for.
    const keys = Object.keys(record).sort();
    const parts: string[] = [];
    for (const k of keys) parts.push(`${JSON.stringify(k)}:${serialize(record[k], k, `${path}.${k}`, ancestors)}`);
    return `{${parts.join(',')}}`;
  } finally {
    ancestors.pop();
  }
}
