import type { ErrorObject } from 'ajv/dist/2020';

/** One schema violation: where (RFC 6901 JSON Pointer into the validated value, '' = the whole value) and what. */
export interface UcpValidationError {
  pointer: string;
  message: string;
}

export type UcpValidationResult = { valid: true } | { valid: false; errors: UcpValidationError[] };

/** RFC 6901 §3: '~' → '~0', '/' → '~1'. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

// `if`/`then` failures only repeat the inner error that follows them.
const echoKeywords = new Set(['if']);
// Items that do not match a `contains` subschema are not errors by themselves: Ajv (allErrors)
// still lists them, beside the `contains` error that is the real finding.
const insideContains = /\/contains\//;

/**
 * Ajv's errors as pointer + message. A missing or unexpected property is reported at the property
 * itself (Ajv reports it at the parent object), so the pointer names the field to fix.
 */
export function toValidationErrors(errors: readonly ErrorObject[] | null | undefined): UcpValidationError[] {
  const out: UcpValidationError[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    if (echoKeywords.has(error.keyword) || insideContains.test(error.schemaPath)) continue;
    let pointer = error.instancePath;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params['missingProperty'] === 'string') {
      pointer += `/${escapePointerToken(params['missingProperty'])}`;
    } else if (error.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
      pointer += `/${escapePointerToken(params['additionalProperty'])}`;
    } else if (error.keyword === 'propertyNames' && typeof params['propertyName'] === 'string') {
      pointer += `/${escapePointerToken(params['propertyName'])}`;
    } else if (error.keyword === 'unevaluatedProperties' && typeof params['unevaluatedProperty'] === 'string') {
      pointer += `/${escapePointerToken(params['unevaluatedProperty'])}`;
    }
    const message = error.message ?? error.keyword;
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer, message });
  }
  return out;
}
