import { errors } from '@exchange/platform';

// Objects of type "fixture" are test fixtures the market indexes (GET /v1/fixtures) and contracts
// name. The registry refuses a malformed one on store, so the index only ever sees valid ones.

export const FIXTURE_TYPE = 'fixture';
export const FIXTURE_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,127}$/;
export const FIXTURE_KINDS = ['unit_tests', 'golden_output', 'schema_validation', 'reference_dataset', 'benchmark', 'property_tests'] as const;
export const EVIDENCE_TIERS = ['self_reported', 'verifier_checked', 'reproducible', 'attested'] as const;
export const DETERMINISM_CLASSES = ['deterministic', 'bounded', 'nondeterministic'] as const;

const FIELDS: ReadonlySet<string> = new Set(['fixture_id', 'type', 'evidence_tier', 'determinism_class', 'spec']);

const invalid = (field: string, message: string) => errors.invalidArgument('fixture_invalid', message, { field });
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function checkEnum(field: string, values: readonly string[], v: unknown): void {
  if (typeof v !== 'string' || !values.includes(v)) throw invalid(`payload.${field}`, `${field} must be one of ${values.join(', ')}`);
}

/**
 * A fixture payload is exactly {fixture_id, type, evidence_tier, determinism_class, spec} with
 * spec a JSON object; anything else → 400 fixture_invalid naming the field (`payload.<field>`).
 * Other object types pass untouched.
 */
export function checkFixturePayload(type: string, payload: unknown): void {
  if (type !== FIXTURE_TYPE) return;
  if (!isObject(payload)) throw invalid('payload', 'a fixture payload is a JSON object');
  for (const key of Object.keys(payload)) {
    if (!FIELDS.has(key)) throw invalid(`payload.${key}`, `unknown field ${key}: a fixture has only fixture_id, type, evidence_tier, determinism_class and spec`);
  }
  if (typeof payload.fixture_id !== 'string' || !FIXTURE_ID_PATTERN.test(payload.fixture_id)) {
    throw invalid('payload.fixture_id', `fixture_id must match ${FIXTURE_ID_PATTERN.source}`);
  }
  checkEnum('type', FIXTURE_KINDS, payload.type);
  checkEnum('evidence_tier', EVIDENCE_TIERS, payload.evidence_tier);
  checkEnum('determinism_class', DETERMINISM_CLASSES, payload.determinism_class);
  if (!isObject(payload.spec)) throw invalid('payload.spec', 'spec must be a JSON object');
}
