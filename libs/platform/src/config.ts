import type { Static, TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** Thrown by `readConfig`; `variable` names the environment variable at fault. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type JsonSchema = TSchema & {
  type?: string | string[];
  default?: unknown;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  '~optional'?: boolean;
};

const INTEGER = /^[+-]?\d+$/;
const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/**
 * Reads a flat TypeBox object schema from environment variables (one property per variable).
 * Strings are coerced to the property type, empty or missing values take the schema default,
 * unknown variables are ignored. Fails fast on the first bad variable, naming it.
 */
export function readConfig<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined> = process.env,
): Static<T> {
  const required = new Set<string>((schema as { required?: string[] }).required ?? []);
  const result: Record<string, unknown> = {};
  for (const [name, propertySchema] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      if (propertySchema.default !== undefined) result[name] = structuredClone(propertySchema.default);
      else if (required.has(name)) throw new ConfigError(name, 'is required but not set');
      continue;
    }
    const value = coerce(name, propertySchema, raw);
    if (!Value.Check(propertySchema, value)) throw new ConfigError(name, `${describe(propertySchema)} (got ${JSON.stringify(raw)})`);
    result[name] = value;
  }
  return result as Static<T>;
}

function coerce(name: string, schema: JsonSchema, raw: string): unknown {
  switch (primaryType(schema)) {
    case 'integer': {
      const n = Number(raw);
      if (!INTEGER.test(raw) || !Number.isSafeInteger(n)) throw new ConfigError(name, `must be an integer (got ${JSON.stringify(raw)})`);
      return n;
    }
    case 'number': {
      const n = Number(raw);
      if (raw.trim() !== raw || !Number.isFinite(n)) throw new ConfigError(name, `must be a number (got ${JSON.stringify(raw)})`);
      return n;
    }
    case 'boolean': {
      const lower = raw.toLowerCase();
      if (TRUE.has(lower)) return true;
      if (FALSE.has(lower)) return false;
      throw new ConfigError(name, `must be a boolean (true/false/1/0/yes/no/on/off) (got ${JSON.stringify(raw)})`);
    }
    default:
      return raw;
  }
}

function primaryType(schema: JsonSchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  return undefined;
}

function allowedValues(schema: JsonSchema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  if (schema.anyOf && schema.anyOf.every((s) => s.const !== undefined)) return schema.anyOf.map((s) => s.const);
  return undefined;
}

function describe(schema: JsonSchema): string {
  const allowed = allowedValues(schema);
  if (allowed) return `must be one of ${allowed.map(String).join(', ')}`;
  const { minimum, maximum, minLength, maxLength, pattern, format } = schema as Record<string, unknown>;
  const rules: string[] = [];
  if (minimum !== undefined) rules.push(`>= ${minimum}`);
  if (maximum !== undefined) rules.push(`<= ${maximum}`);
  if (minLength !== undefined) rules.push(`at least ${minLength} characters`);
  if (maxLength !== undefined) rules.push(`at most ${maxLength} characters`);
  if (pattern !== undefined) rules.push(`matching ${pattern}`);
  if (format !== undefined) rules.push(`in format ${format}`);
  return rules.length > 0 ? `must be ${rules.join(' and ')}` : 'is invalid';
}
