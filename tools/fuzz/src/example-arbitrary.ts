// Valid bodies that the services accept, not only the schema: the document's example body with
// its ids replaced by real ones (agent fields by the signing agent, who may only act as
// itself), a fresh idempotency key and future dates. Schema-generated values give breadth;
// these reach the code behind the business checks (a faucet grant, an offer, a transfer).
import fc from 'fast-check';
import { poolFor, poolValues, type Pools } from './id-pools';
import type { JsonSchema } from './openapi';

export interface ExampleContext {
  pools: Pools;
  signerId: string;
  /** Dates are placed after this instant (deadlines and ETAs must be in the future). */
  now: number;
}

const DAY = 86_400_000;

/** A fresh idempotency key (a reused one with another body is 422 idempotency_key_reused). */
export const freshIdempotencyKey = (): fc.Arbitrary<string> => fc.uuid().map((u) => `fuzz-${u}`);

/** A date a day to a month after `now`: still ahead at the end of the longest run. */
export const futureDate = (now: number): fc.Arbitrary<string> =>
  fc.integer({ min: 1, max: 30 * 24 }).map((hours) => new Date(now + DAY + hours * 3_600_000).toISOString());

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function scalar(example: unknown, schema: JsonSchema, ctx: ExampleContext, name: string): fc.Arbitrary<unknown> {
  if (name === 'idempotency_key') return freshIdempotencyKey();
  const pool = poolFor(name, schema.pattern);
  if (pool === 'agent') return fc.oneof({ arbitrary: fc.constant(ctx.signerId), weight: 3 }, { arbitrary: fc.constantFrom(...(poolValues(ctx.pools, 'agent') ?? [ctx.signerId])), weight: 1 });
  const real = poolValues(ctx.pools, pool);
  if (real) return fc.constantFrom(...real);
  if (schema.format === 'date-time' && typeof example === 'string') return futureDate(ctx.now);
  return fc.constant(example);
}

/** Values shaped like `example` (its keys, its values) with real ids, fresh keys and future dates. */
export function exampleArbitrary(example: unknown, schema: JsonSchema, ctx: ExampleContext, name = ''): fc.Arbitrary<unknown> {
  if (Array.isArray(example)) {
    const real = poolValues(ctx.pools, poolFor(name));
    if (real) return fc.array(fc.constantFrom(...real), { minLength: Math.min(1, example.length), maxLength: Math.max(1, example.length) });
    return fc.tuple(...example.map((item) => exampleArbitrary(item, schema.items ?? {}, ctx, name)));
  }
  if (isObject(example) && name !== 'docket') {
    const props = schema.properties ?? {};
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, value] of Object.entries(example)) model[key] = exampleArbitrary(value, Object.hasOwn(props, key) ? props[key] : {}, ctx, key);
    return fc.record(model);
  }
  return scalar(example, schema, ctx, name);
}
