// JSON schema → fast-check arbitrary of values the schema accepts (the "valid" half of the
// fuzzer; mutate.ts breaks them). Real ids and the document's examples are mixed in so that a
// valid value often passes the service's own checks too and reaches deeper code.
import fc from 'fast-check';
import { poolFor, poolValues, type Pools } from './id-pools';
import type { JsonSchema } from './openapi';

export interface ArbitraryContext {
  pools: Pools;
}

/** Free text stays short: long and hostile strings are the mutator's business. */
const MAX_FREE_STRING = 24;
const MAX_ARRAY = 3;
const MAX_DEPTH = 8;

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

/** The schema's pattern as a RegExp, or null when JavaScript cannot compile it. */
export function patternOf(schema: JsonSchema): RegExp | null {
  if (!schema.pattern) return null;
  try {
    return new RegExp(schema.pattern, 'u');
  } catch {
    return null;
  }
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Number.MAX_SAFE_INTEGER;
  if (schema.format === 'date-time') {
    return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  }
  const re = patternOf(schema);
  if (re) {
    // (stringMatching's own maxLength can clash with the pattern's quantifiers: filter instead.)
    return fc.stringMatching(re).filter((s) => s.length >= minLength && s.length <= maxLength);
  }
  return fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, MAX_FREE_STRING)) });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : schema.minimum;
  const hi = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : schema.maximum;
  if (integer) return fc.integer({ min: Math.ceil(lo ?? -1000), max: Math.floor(hi ?? 1_000_000) });
  return fc.double({ min: lo ?? -1e6, max: hi ?? 1e6, noNaN: true, noDefaultInfinity: true });
}

function objectArbitrary(schema: JsonSchema, ctx: ArbitraryContext, depth: number): fc.Arbitrary<unknown> {
  const props = schema.properties ?? {};
  const names = Object.keys(props);
  if (names.length === 0) {
    const extra = schema.additionalProperties;
    if (extra === false) return fc.constant({});
    const values = typeof extra === 'object' ? schemaArbitrary(extra, ctx, '', depth + 1) : fc.jsonValue({ maxDepth: 2 });
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), values, { maxKeys: Math.min(schema.maxProperties ?? 3, 3) });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) model[name] = schemaArbitrary(props[name], ctx, name, depth + 1);
  const requiredKeys = (schema.required ?? []).filter((k) => names.includes(k));
  return fc.record(model, { requiredKeys });
}

function byType(schema: JsonSchema, ctx: ArbitraryContext, name: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((s) => schemaArbitrary(s, ctx, name, depth + 1)));
  if (depth > MAX_DEPTH) return fc.constant(null);
  switch (typeOf(schema)) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? MAX_ARRAY, MAX_ARRAY));
      // Items of `artifact_refs` are artifact refs: the array's name picks the items' pool.
      return fc.array(schemaArbitrary(schema.items ?? {}, ctx, name, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, ctx, depth);
    default:
      return schema.properties ? objectArbitrary(schema, ctx, depth) : fc.jsonValue({ maxDepth: 2 });
  }
}

// Building an arbitrary (stringMatching above all) costs far more than drawing from it, and the
// case generator asks for the same (schema, name) again and again: built once per context.
const built = new WeakMap<ArbitraryContext, WeakMap<JsonSchema, Map<string, fc.Arbitrary<unknown>>>>();

/**
 * Values `schema` accepts. `name` is the field or parameter name: it selects real values (a
 * `contract_id` is often a contract that exists) and the document's examples are favoured.
 */
export function schemaArbitrary(schema: JsonSchema, ctx: ArbitraryContext, name = '', depth = 0): fc.Arbitrary<unknown> {
  let bySchema = built.get(ctx);
  if (!bySchema) built.set(ctx, (bySchema = new WeakMap()));
  let byName = bySchema.get(schema);
  if (!byName) bySchema.set(schema, (byName = new Map()));
  const key = `${name}\u0000${depth}`;
  let arb = byName.get(key);
  if (!arb) byName.set(key, (arb = buildArbitrary(schema, ctx, name, depth)));
  return arb;
}

function buildArbitrary(schema: JsonSchema, ctx: ArbitraryContext, name: string, depth: number): fc.Arbitrary<unknown> {
  const base = byType(schema, ctx, name, depth);
  const isContainer = typeOf(schema) === 'array' || (typeOf(schema) === 'object' && name !== 'docket');
  const real = isContainer ? null : poolValues(ctx.pools, poolFor(name, schema.pattern));
  const examples = [...(schema.examples ?? []), ...(schema.default !== undefined ? [schema.default] : [])];
  const choices: Array<fc.WeightedArbitrary<unknown>> = [{ arbitrary: base, weight: 2 }];
  if (real) choices.push({ arbitrary: fc.constantFrom(...real), weight: 6 });
  if (examples.length > 0 && !schema.enum) choices.push({ arbitrary: fc.constantFrom(...examples), weight: 2 });
  return choices.length === 1 ? base : fc.oneof(...choices);
}
