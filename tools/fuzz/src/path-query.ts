// Path and query of a request: valid ones (real ids, the signer's own agent id, schema values)
// and hostile ones (one parameter broken, or the whole path reshaped).
import fc from 'fast-check';
import { HOSTILE_QUERY_VALUES, HOSTILE_SEGMENTS, HOSTILE_STRINGS, PATH_SHAPES } from './hostile';
import { POOL_NAMES, poolFor, poolValues, type Pools } from './id-pools';
import { targetsFor, type OpTargets } from './op-targets';
import { preview } from './mutate';
import { templateParts, type Operation, type Parameter } from './openapi';
import { schemaArbitrary } from './schema-arbitrary';

export interface PathQueryContext {
  pools: Pools;
  /** Agent ids of the run's signing agents (case.signer indexes them). */
  signerIds: string[];
  /** The wallet a hold, deposit or withdrawal belongs to (its id → agent id). */
  owners?: ReadonlyMap<string, string>;
  /** Holds of contracts' escrow: the oracle needs them named with their owner's wallet. */
  escrowHolds?: ReadonlySet<string>;
  /** Per signing agent, the ids it may act on (its checkout sessions, its mandates): those reach 2xx. */
  actorPools?: ReadonlyMap<string, Pools>;
  /** Per operation, real ids that only reach a 2xx together (an offer with its contract…). */
  targets?: OpTargets;
}

/** Percent-encodes UTF-8 like encodeURIComponent, but a lone surrogate becomes U+FFFD instead of throwing. */
export function percentEncode(value: string): string {
  return encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'));
}

/** One path segment percent-encoded; `:` stays literal as the SDK sends agent ids. */
export function encodeSegment(value: string): string {
  return percentEncode(value).replace(/%3A/gi, ':');
}

/** The template with each `{param}` replaced by its (already encoded) segment. */
export function renderPath(template: string, segments: Record<string, string>): string {
  return templateParts(template)
    .map((p) => ('literal' in p ? p.literal : (segments[p.param] ?? '')))
    .join('');
}

export function renderQuery(pairs: Array<[string, string]>): string {
  return pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');

function paramValue(p: Parameter, ctx: PathQueryContext, signerId: string): fc.Arbitrary<string> {
  const choices: Array<fc.WeightedArbitrary<string>> = [{ arbitrary: schemaArbitrary(p.schema, ctx, p.name).map(asText), weight: 3 }];
  // An agent signing for its own wallet, reputation… is what reaches the deeper code.
  const pool = poolFor(p.name, p.schema.pattern);
  if (pool === 'agent') choices.push({ arbitrary: fc.constant(signerId), weight: 4 });
  // A session or mandate of the agent acting: the others are refused (not its session, 404).
  const own = poolValues(ctx.actorPools?.get(signerId) ?? {}, pool);
  if (own) choices.push({ arbitrary: fc.constantFrom(...own.map(asText)), weight: 6 });
  if (p.example !== undefined) choices.push({ arbitrary: fc.constant(asText(p.example)), weight: 1 });
  return fc.oneof(...choices);
}

/**
 * Encoded segments for every path parameter. A real hold, deposit or withdrawal usually comes
 * with its own wallet's agent id, so the request reaches the rules about it (an escrow hold…);
 * and an operation's targets (op-targets.ts) name all their parameters together half the time:
 * the rest go to the pools' ids (other states; a once-only target stays used up). A drawn escrow
 * hold is never replaced by a target, so the escrow oracle keeps its share of consumes.
 */
export function validSegments(op: Operation, ctx: PathQueryContext, signerId: string): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.pathParams) model[p.name] = paramValue(p, ctx, signerId).map(encodeSegment);
  const owned = op.pathParams.find((p) => ['hold_id', 'deposit_id', 'withdrawal_id'].includes(p.name));
  const owners = op.pathParams.some((p) => p.name === 'agent_id') ? ctx.owners : undefined;
  const targets = targetsFor(ctx.targets, op.key, signerId);
  if ((!owned || !owners) && targets.length === 0) return fc.record(model);
  return fc.tuple(fc.record(model), fc.nat({ max: 9 }), fc.nat({ max: Math.max(0, targets.length - 1) })).map(([segments, n, pick]) => {
    const escrow = owned !== undefined && (ctx.escrowHolds?.has(segments[owned.name]) ?? false);
    if (targets.length > 0 && !escrow && n < 5) {
      const named = Object.entries(targets[pick].params).filter(([name]) => name in segments);
      return { ...segments, ...Object.fromEntries(named.map(([name, value]) => [name, encodeSegment(value)])) };
    }
    const owner = owned && owners?.get(segments[owned.name]);
    return owner && n < 7 ? { ...segments, agent_id: encodeSegment(owner) } : segments;
  });
}

/** Encoded `name=value` pairs: required parameters always, optional ones sometimes. */
export function validQuery(op: Operation, ctx: PathQueryContext, signerId: string): fc.Arbitrary<Array<[string, string]>> {
  if (op.queryParams.length === 0) return fc.constant([]);
  const parts = op.queryParams.map((p) => {
    const value = paramValue(p, ctx, signerId).map((v): [string, string] => [percentEncode(p.name), percentEncode(v)]);
    return p.required ? value.map((v) => [v]) : fc.option(value, { freq: 2 }).map((v) => (v ? [v] : []));
  });
  return fc.tuple(...parts).map((lists) => lists.flat());
}

export interface Hostile {
  target: string;
  label: string;
}

/** A real id of another kind than the parameter wants (a hold id where an offer id goes…). */
function foreignId(ctx: PathQueryContext, pick: number): string | null {
  const values = POOL_NAMES.flatMap((n) => (n === 'docket' || n === 'archive' ? [] : (poolValues(ctx.pools, n) ?? []))).filter((v) => typeof v === 'string');
  return values.length === 0 ? null : (values[pick % values.length] as string);
}

/** The path with one parameter hostile, or reshaped as a whole; the query stays valid. */
export function hostilePath(op: Operation, ctx: PathQueryContext, signerId: string): fc.Arbitrary<Hostile> {
  return fc
    .record({ segments: validSegments(op, ctx, signerId), query: validQuery(op, ctx, signerId), how: fc.nat({ max: 99 }), pick: fc.nat({ max: 1_000_000 }) })
    .map(({ segments, query, how, pick }) => {
      const names = op.pathParams.map((p) => p.name);
      const q = renderQuery(query);
      if (names.length === 0 || how < 10) {
        const shape = PATH_SHAPES[pick % PATH_SHAPES.length];
        const valid = renderPath(op.path, segments);
        const target = shape(valid) + (shape(valid).includes('?') ? '' : q);
        return { target, label: `path reshaped: ${preview(target.replace(valid, '…'), 60)}` };
      }
      const name = names[pick % names.length];
      let segment: string;
      if (how < 55) segment = HOSTILE_SEGMENTS[pick % HOSTILE_SEGMENTS.length];
      else if (how < 85) segment = encodeSegment(HOSTILE_STRINGS[pick % HOSTILE_STRINGS.length]);
      else segment = encodeSegment(foreignId(ctx, pick) ?? 'none');
      return { target: renderPath(op.path, { ...segments, [name]: segment }) + q, label: `path {${name}} = ${preview(segment, 50)}` };
    });
}

const WRONG_TYPED: Record<string, string[]> = {
  integer: ['abc', '1.5', '-5', '0', '١٢', '1e2', '0x10', '99999999999999999999', 'NaN', ' 5'],
  number: ['abc', 'NaN', 'Infinity', '1e400', '-1e308', '١٢', ''],
  boolean: ['yes', '2', 'TRUE', '', 'null'],
};

/** The query with one hostile parameter (or a hostile shape); the path stays valid. */
export function hostileQuery(op: Operation, ctx: PathQueryContext, signerId: string): fc.Arbitrary<Hostile> {
  return fc
    .record({ segments: validSegments(op, ctx, signerId), query: validQuery(op, ctx, signerId), how: fc.nat({ max: 99 }), pick: fc.nat({ max: 1_000_000 }) })
    .map(({ segments, query, how, pick }) => {
      const path = renderPath(op.path, segments);
      const params = op.queryParams;
      const others = (name: string) => query.filter(([k]) => k !== name);
      if (params.length === 0 || how < 15) {
        const shapes = ['fuzz=1', '__proto__%5Bx%5D=1', 'a%5Bb%5D=1', '%00=1', '&&&', '=', 'limit', `${'k'.repeat(2000)}=1`, 'x=%zz'];
        const extra = shapes[pick % shapes.length];
        const pairs = query.map(([k, v]) => `${k}=${v}`);
        return { target: `${path}?${[...pairs, extra].join('&')}`, label: `query + ${preview(extra, 40)}` };
      }
      const p = params[pick % params.length];
      const type = Array.isArray(p.schema.type) ? p.schema.type[0] : p.schema.type;
      let value: string;
      if (how < 35 && type && WRONG_TYPED[type]) value = percentEncode(WRONG_TYPED[type][pick % WRONG_TYPED[type].length]);
      else if (how < 40 && p.schema.enum) value = 'bogus_value';
      else if (how < 70) value = HOSTILE_QUERY_VALUES[pick % HOSTILE_QUERY_VALUES.length];
      else if (how < 90) value = percentEncode(HOSTILE_STRINGS[pick % HOSTILE_STRINGS.length]);
      else {
        // The same parameter twice (an array where a string is expected).
        const pairs = [...query.map(([k, v]) => `${k}=${v}`), `${p.name}=1`, `${p.name}=2`];
        return { target: `${path}?${pairs.join('&')}`, label: `query ${p.name} repeated` };
      }
      const target = path + renderQuery([...others(encodeURIComponent(p.name)), [encodeURIComponent(p.name), value]]);
      return { target, label: `query ${p.name}=${preview(value, 50)}` };
    });
}
