// A small validator for the JSON-schema subset of the gateway's document: the unit tests use it
// to prove generated values are valid and mutated ones are not.
import type { JsonSchema } from './openapi';
import { patternOf } from './schema-arbitrary';

/** JSON pointers (with a reason) where `value` breaks `schema`; empty when it conforms. */
export function violations(schema: JsonSchema, value: unknown, pointer = ''): string[] {
  const at = (reason: string) => [`${pointer || '/'}: ${reason}`];
  if (schema.const !== undefined && value !== schema.const) return at('not the constant');
  if (schema.enum && !schema.enum.includes(value)) return at('not in enum');
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && !alternatives.some((s) => violations(s, value, pointer).length === 0)) return at('no alternative matches');
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((t) => hasType(t, value))) return at(`not ${types.join('|')}`);
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) return at('too short');
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) return at('too long');
    const re = patternOf(schema);
    if (re && !re.test(value)) return at('pattern');
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return at('date-time');
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return at('below minimum');
    if (schema.maximum !== undefined && value > schema.maximum) return at('above maximum');
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return at('too few items');
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return at('too many items');
    return schema.items ? value.flatMap((v, i) => violations(schema.items as JsonSchema, v, `${pointer}/${i}`)) : [];
  }
  if (isPlainObject(value)) {
    const out: string[] = [];
    const props = schema.properties ?? {};
    for (const name of schema.required ?? []) if (!(name in value)) out.push(`${pointer}/${name}: required`);
    for (const [name, v] of Object.entries(value)) {
      if (Object.hasOwn(props, name)) out.push(...violations(props[name], v, `${pointer}/${name}`));
      else if (schema.additionalProperties === false) out.push(`${pointer}/${name}: unknown field`);
      else if (typeof schema.additionalProperties === 'object') out.push(...violations(schema.additionalProperties, v, `${pointer}/${name}`));
    }
    if (schema.maxProperties !== undefined && Object.keys(value).length > schema.maxProperties) out.push(`${pointer || '/'}: too many properties`);
    return out;
  }
  return [];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return true;
  }
}
