// TypeBox's compiled Check is fast, but its Errors walks every item of an array with its
// interpreter (some 5 µs each), even past a failed maxItems: 120,000 one-letter items in a 480 KB
// body kept the event loop busy 0.6 s for a 400 that needs only "must not have more than 100
// items"; likewise every unknown key of a closed object (60,000: 70 ms). So errors are computed
// on the value with each over-long array cut to maxItems + 1 items and each closed object's
// unknown keys cut to the first few: the same first errors, in bounded time. Only on the error
// path; the value a route gets is the one sent.

interface SchemaLike {
  maxItems?: number;
  items?: unknown;
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
}

/** Unknown keys of a closed object kept for its errors (each is one `additionalProperties` error). */
const UNKNOWN_KEYS_KEPT = 8;

/**
 * `value` with every array longer than its schema's maxItems cut to maxItems + 1 items, and every
 * object closed by its schema (additionalProperties: false) keeping at most 8 unknown keys;
 * copied only along the cut paths.
 */
export function boundForErrors(schema: unknown, value: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return value;
  const s = schema as SchemaLike;
  if (Array.isArray(value)) {
    const cut = typeof s.maxItems === 'number' && value.length > s.maxItems + 1 ? value.slice(0, s.maxItems + 1) : value;
    if (typeof s.items !== 'object' || s.items === null || Array.isArray(s.items)) return cut;
    let out = cut;
    for (let i = 0; i < cut.length; i++) {
      const item = boundForErrors(s.items, cut[i]);
      if (item === cut[i]) continue;
      if (out === value) out = [...cut];
      out[i] = item;
    }
    return out;
  }
  if (typeof value !== 'object' || value === null || !s.properties) return value;
  let out = value as Record<string, unknown>;
  if (s.additionalProperties === false) out = withFewUnknownKeys(value as Record<string, unknown>, s.properties);
  for (const [key, propertySchema] of Object.entries(s.properties)) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const before = (value as Record<string, unknown>)[key];
    const after = boundForErrors(propertySchema, before);
    if (after === before) continue;
    if (out === value) out = { ...(value as Record<string, unknown>) };
    out[key] = after;
  }
  return out;
}

/**
 * `object` itself when it has at most 8 keys its schema does not know, else a copy with its known
 * keys and the first 8 unknown ones, in their order. Built key by key: spreading 50,000 keys and
 * deleting all but 8 took longer than parsing the body.
 */
function withFewUnknownKeys(object: Record<string, unknown>, properties: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(object);
  let unknown = 0;
  for (const key of keys) if (!Object.hasOwn(properties, key)) unknown++;
  if (unknown <= UNKNOWN_KEYS_KEPT) return object;
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const key of keys) {
    if (!Object.hasOwn(properties, key) && kept++ >= UNKNOWN_KEYS_KEPT) continue;
    // defineProperty: a key named "__proto__" stays a key, as it was in the parsed body.
    Object.defineProperty(out, key, { value: object[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}
