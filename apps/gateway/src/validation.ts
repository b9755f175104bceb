import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { boundForErrors } from './bound-for-errors';
import { findUnacceptable } from './input-hygiene';

// Route validation with TypeBox's compiled checker. Bodies are checked as sent: no coercion and
// no removal of unknown fields (DESIGN §3: schemas are strict). Query and path values arrive as
// strings and are converted only when they are exactly an integer, number or boolean literal
// ("1.5", "1e2", " 5" or "true" for an integer stay strings and fail the check, unlike
// TypeBox's lenient Value.Convert).

const INTEGER = /^-?(0|[1-9]\d{0,15})$/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

interface JsonSchemaLike {
  type?: string | string[];
  required?: string[];
  properties?: Record<string, JsonSchemaLike>;
  anyOf?: JsonSchemaLike[];
}

function types(schema: JsonSchemaLike): string[] {
  const own = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  return schema.anyOf ? [...own, ...schema.anyOf.flatMap(types)] : own;
}

/** Converts one string the way a strict HTTP API reads `?limit=10` or `?active=true`. */
export function convertScalar(schema: JsonSchemaLike, raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const allowed = types(schema);
  if (allowed.includes('string')) return raw;
  if (allowed.includes('integer') && INTEGER.test(raw)) return Number(raw);
  if (allowed.includes('number') && NUMBER.test(raw)) return Number(raw);
  if (allowed.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

export function convertStringFields(schema: JsonSchemaLike, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !schema.properties) return value;
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const property = schema.properties[key];
    out[key] = property ? convertScalar(property, raw) : raw;
  }
  return out;
}

/**
 * A body whose schema has no required field may be left out entirely (e.g. POST …/release with
 * the idempotency key in its header): it is read as `{}`, and so is a JSON `null` (Fastify gives
 * both as null). Any other body is checked as sent.
 */
export function bodyMayBeOmitted(schema: JsonSchemaLike): boolean {
  return schema.type === 'object' && (schema.required ?? []).length === 0;
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const checker = Compile(schema);
  const convert = httpPart === 'body' ? null : (v: unknown) => convertStringFields(schema as JsonSchemaLike, v);
  const emptyBody = httpPart === 'body' && bodyMayBeOmitted(schema as JsonSchemaLike) ? {} : undefined;
  return (input: unknown) => {
    // NUL and non-finite numbers are refused in every part with a schema (body, query, path,
    // headers), free-form payloads included.
    const bad = findUnacceptable(input);
    if (bad) return { error: [{ keyword: bad.keyword, instancePath: bad.pointer, message: bad.message }] as never };
    const value = convert ? convert(input) : (input === undefined || input === null) && emptyBody ? {} : input;
    if (checker.Check(value)) return { value };
    return { error: checker.Errors(boundForErrors(schema, value)) as never };
  };
};
