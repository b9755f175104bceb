/** Header fields as most Node HTTP stacks give them: any name case, repeated fields as arrays. */
export type HeaderMap = Record<string, string | string[]>;

/** The field value for `name` (case-insensitive), repeated fields joined with ", " (RFC 9110 §5.3). */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const parts: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    // Typed callers can still hand in undefined or numbers from loose JSON: only strings count.
    for (const part of Array.isArray(value) ? value : [value]) if (typeof part === 'string') parts.push(part);
  }
  return parts.length ? parts.join(', ') : undefined;
}

/** A copy without the fields named (case-insensitive). */
export function withoutHeaders(headers: HeaderMap, names: string[]): HeaderMap {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([key]) => !drop.has(key.toLowerCase())));
}

export interface HeaderLimits {
  /** Most header fields accepted (default 100). */
  maxHeaders?: number;
  /** Longest field value in characters (default 8192). */
  maxValueLength?: number;
}

// RFC 9110 §5.1 token characters; field values may not hold CR, LF or NUL (§5.5).
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;

/**
 * Untrusted JSON → a HeaderMap, or a reason it cannot be one. Duplicate names in other cases are
 * merged (lower-cased keys) so every later lookup sees one field.
 */
export function sanitizeHeaders(input: unknown, limits: HeaderLimits = {}): { headers: HeaderMap } | { error: string } {
  const maxHeaders = limits.maxHeaders ?? 100;
  const maxValueLength = limits.maxValueLength ?? 8192;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { error: 'headers must be an object' };
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > maxHeaders) return { error: `more than ${maxHeaders} header fields` };
  const out: Record<string, string[]> = Object.create(null);
  for (const [name, raw] of entries) {
    if (!FIELD_NAME.test(name) || name.length > 256) return { error: 'invalid header name' };
    const values = Array.isArray(raw) ? raw : [raw];
    if (values.length > maxHeaders) return { error: `too many values for ${name.toLowerCase()}` };
    for (const value of values) {
      if (typeof value !== 'string') return { error: `header ${name.toLowerCase()} is not a string` };
      if (value.length > maxValueLength) return { error: `header ${name.toLowerCase()} longer than ${maxValueLength}` };
      if (FORBIDDEN_IN_VALUE.test(value)) return { error: `header ${name.toLowerCase()} holds CR, LF or NUL` };
    }
    const key = name.toLowerCase();
    (out[key] ??= []).push(...(values as string[]));
  }
  // fromEntries, not assignment: a field named __proto__ must stay a field.
  const headers: HeaderMap = Object.fromEntries(Object.entries(out).map(([key, values]) => [key, values.length === 1 ? values[0] : values]));
  return { headers };
}
