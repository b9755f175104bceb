// Breaks a valid JSON value at one place, chosen by the schema there: a hostile string in a
// string field, an overflowing number in a numeric one, a dropped required field, an unknown
// key, a huge or 5,000-deep value… Each mutation carries a label saying what it did.
import fc from 'fast-check';
import { HOSTILE_KEYS, HOSTILE_NUMBERS, HOSTILE_STRINGS, WRONG_TYPE_VALUES } from './hostile';
import { cloneJson, deeplyNested, duplicateKeyObject, raw, RawJson, setOwn } from './json-text';
import type { JsonSchema } from './openapi';

export interface Mutated {
  value: unknown;
  /** e.g. `/amount ← hostile string "١٢"` */
  label: string;
}

type Path = Array<string | number>;

export interface JsonNode {
  path: Path;
  schema: JsonSchema | undefined;
  value: unknown;
}

export const MUTATION_KINDS = [
  'hostile-string',
  'wrong-type',
  'overflow-number',
  'null',
  'drop-required',
  'unknown-field',
  'huge-string',
  'huge-array',
  'deep-nesting',
  'many-keys',
  'duplicate-key',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawJson);

/** Every node of the value (the root first) with the schema that governs it, when known. */
export function nodesOf(value: unknown, schema: JsonSchema | undefined, path: Path = []): JsonNode[] {
  const nodes: JsonNode[] = [{ path, schema, value }];
  if (Array.isArray(value)) {
    value.forEach((item, i) => nodes.push(...nodesOf(item, schema?.items, [...path, i])));
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      const declared = schema?.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      const child = declared ?? (typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      nodes.push(...nodesOf(value[key], child, [...path, key]));
    }
  }
  return nodes;
}

export const pointerOf = (path: Path) => path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** A copy of `root` with the node at `path` replaced (or removed when `replacement` is REMOVE). */
export function replaceAt(root: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = cloneJson(root);
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (replacement === REMOVE) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (Array.isArray(parent)) {
    parent[last as number] = replacement;
  } else {
    setOwn(parent as Record<string, unknown>, String(last), replacement);
  }
  return copy;
}

export const REMOVE = Symbol('remove');

/** Short, escaped rendering of a value for labels and reports. */
export function preview(value: unknown, max = 40): string {
  let text: string;
  if (value instanceof RawJson) text = value.text;
  else if (typeof value === 'string') text = JSON.stringify(value);
  else text = JSON.stringify(value) ?? String(value);
  // Escape what JSON.stringify leaves raw but a terminal would hide or reorder.
  text = text.replace(/[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > max ? `${text.slice(0, max)}…(${text.length})` : text;
}

function kindsFor(node: JsonNode): MutationKind[] {
  const type = Array.isArray(node.schema?.type) ? node.schema?.type[0] : node.schema?.type;
  const v = node.value;
  if (typeof v === 'string' || type === 'string') {
    return ['hostile-string', 'hostile-string', 'hostile-string', 'wrong-type', 'overflow-number', 'huge-string', 'null'];
  }
  if (typeof v === 'number' || type === 'integer' || type === 'number') {
    return ['overflow-number', 'overflow-number', 'overflow-number', 'wrong-type', 'hostile-string', 'null'];
  }
  if (typeof v === 'boolean') return ['wrong-type', 'hostile-string', 'null'];
  if (Array.isArray(v)) return ['huge-array', 'wrong-type', 'deep-nesting', 'hostile-string', 'null'];
  if (isObject(v)) {
    const required = (node.schema?.required ?? []).filter((k) => k in v);
    return [
      ...(required.length > 0 ? (['drop-required', 'drop-required'] as const) : []),
      'unknown-field',
      'unknown-field',
      'wrong-type',
      'deep-nesting',
      'many-keys',
      'duplicate-key',
      'null',
    ];
  }
  return ['wrong-type', 'deep-nesting', 'hostile-string'];
}

const HUGE_STRING_SIZES = [10_000, 10_000, 100_000, 100_000, 300_000, 1_100_000];
const HUGE_ARRAY_SIZES = [1_000, 1_000, 10_000, 10_000, 120_000];
const NESTING_DEPTHS = [65, 200, 1_000, 5_000, 5_000, 10_000];

/** Applies one mutation; `pick` chooses deterministically among the catalogue entries. */
export function applyMutation(root: unknown, node: JsonNode, kind: MutationKind, pick: number): Mutated {
  const at = pointerOf(node.path) || '(root)';
  const put = (value: unknown, what: string): Mutated => ({ value: replaceAt(root, node.path, value), label: `${at} ← ${what}` });
  const choose = <T>(list: readonly T[]) => list[pick % list.length];
  switch (kind) {
    case 'hostile-string': {
      const s = choose(HOSTILE_STRINGS);
      return put(s, `hostile string ${preview(s)}`);
    }
    case 'wrong-type': {
      const v = choose(WRONG_TYPE_VALUES);
      return put(v, `wrong type ${preview(v)}`);
    }
    case 'overflow-number': {
      const n = choose(HOSTILE_NUMBERS);
      return put(n, `number ${n.text}`);
    }
    case 'null':
      return put(null, 'null');
    case 'huge-string': {
      const size = choose(HUGE_STRING_SIZES);
      const unit = pick % 3 === 0 ? 'é' : pick % 3 === 1 ? '١' : 'a';
      return put(unit.repeat(size), `string of ${size} × ${JSON.stringify(unit)}`);
    }
    case 'huge-array': {
      const size = choose(HUGE_ARRAY_SIZES);
      const item = Array.isArray(node.value) && node.value.length > 0 ? node.value[0] : 'x';
      return put(new Array(size).fill(item), `array of ${size} items`);
    }
    case 'deep-nesting': {
      const depth = choose(NESTING_DEPTHS);
      const shape = pick % 2 === 0 ? 'object' : 'array';
      return put(deeplyNested(depth, shape), `${shape}s nested ${depth} deep`);
    }
    case 'many-keys': {
      const obj: Record<string, unknown> = isObject(node.value) ? { ...node.value } : {};
      for (let i = 0; i < 10_000; i++) obj[`k${i}`] = i;
      return put(obj, 'object with 10,000 extra keys');
    }
    case 'duplicate-key': {
      const obj = isObject(node.value) ? node.value : {};
      const key = Object.keys(obj)[pick % Math.max(1, Object.keys(obj).length)] ?? 'a';
      const second = choose(HOSTILE_STRINGS);
      const rest = Object.keys(obj)
        .filter((k) => k !== key)
        .map((k) => `${JSON.stringify(k)}:${JSON.stringify(obj[k]) ?? 'null'}`);
      const dup = duplicateKeyObject(key, obj[key] ?? 1, second).text;
      const text = rest.length === 0 ? dup : `${dup.slice(0, -1)},${rest.join(',')}}`;
      return put(raw(text), `duplicate key ${JSON.stringify(key)} (second ${preview(second, 20)})`);
    }
    case 'drop-required': {
      const obj = node.value as Record<string, unknown>;
      const required = (node.schema?.required ?? []).filter((k) => k in obj);
      const key = required[pick % required.length];
      return { value: replaceAt(root, [...node.path, key], REMOVE), label: `${at} ← without required ${JSON.stringify(key)}` };
    }
    case 'unknown-field': {
      const key = choose(HOSTILE_KEYS);
      const obj = cloneJson(isObject(node.value) ? node.value : {});
      setOwn(obj, key, pick % 2 === 0 ? { admin: true } : 'x');
      return put(obj, `unknown key ${preview(key, 24)}`);
    }
  }
}

/** Mutations of values from `valid`, each breaking one node chosen by the schema. */
export function mutationArbitrary(schema: JsonSchema, valid: fc.Arbitrary<unknown>): fc.Arbitrary<Mutated> {
  return valid.chain((value) => {
    const nodes = nodesOf(value, schema);
    return fc
      .record({ node: fc.constantFrom(...nodes), pick: fc.nat({ max: 1_000_000 }), k: fc.nat({ max: 1_000_000 }) })
      .map(({ node, pick, k }) => {
        const kinds = kindsFor(node);
        return applyMutation(value, node, kinds[k % kinds.length], pick);
      });
  });
}
