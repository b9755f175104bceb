import { invalid } from '../domain/validation';
import {
  DETERMINISM_CLASSES,
  EVIDENCE_TIERS,
  FIXTURE_TYPES,
  type DeterminismClass,
  type EvidenceTier,
  type FixtureFilter,
  type FixtureType,
} from './model';

// The fixture payload as the registry accepts it (the registry refuses anything else on store
// with 400 fixture_invalid). The market re-checks what it indexes: an object stored before that
// rule, or by a registry that does not check, is skipped instead of breaking the index.

export const FIXTURE_ID = /^[a-z0-9][a-z0-9._-]{0,127}$/;
export const FIXTURE_OBJECT_TYPE = 'fixture';

export interface FixturePayload {
  fixtureId: string;
  type: FixtureType;
  evidenceTier: EvidenceTier;
  determinismClass: DeterminismClass;
  spec: Record<string, unknown>;
}

export type FixtureParse = { ok: true; fixture: FixturePayload } | { ok: false; field: string; message: string };

const FIELDS = new Set(['fixture_id', 'type', 'evidence_tier', 'determinism_class', 'spec']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function oneOf<T extends string>(values: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (values as readonly string[]).includes(v);
}

/** A fixture payload, or the first field that is wrong ("payload.<field>"). */
export function parseFixturePayload(payload: unknown): FixtureParse {
  const bad = (field: string, message: string): FixtureParse => ({ ok: false, field, message });
  if (!isObject(payload)) return bad('payload', 'a fixture payload is a JSON object');
  const extra = Object.keys(payload).find((k) => !FIELDS.has(k));
  if (extra !== undefined) return bad(`payload.${extra}`, `a fixture payload has only fixture_id, type, evidence_tier, determinism_class and spec`);
  const p = payload;
  if (typeof p.fixture_id !== 'string' || !FIXTURE_ID.test(p.fixture_id)) return bad('payload.fixture_id', `fixture_id must match ${FIXTURE_ID.source}`);
  if (!oneOf(FIXTURE_TYPES, p.type)) return bad('payload.type', `type must be one of ${FIXTURE_TYPES.join(', ')}`);
  if (!oneOf(EVIDENCE_TIERS, p.evidence_tier)) return bad('payload.evidence_tier', `evidence_tier must be one of ${EVIDENCE_TIERS.join(', ')}`);
  if (!oneOf(DETERMINISM_CLASSES, p.determinism_class)) {
    return bad('payload.determinism_class', `determinism_class must be one of ${DETERMINISM_CLASSES.join(', ')}`);
  }
  if (!isObject(p.spec)) return bad('payload.spec', 'spec must be a JSON object');
  return {
    ok: true,
    fixture: { fixtureId: p.fixture_id, type: p.type, evidenceTier: p.evidence_tier, determinismClass: p.determinism_class, spec: p.spec },
  };
}

function enumFilter<T extends string>(field: string, values: readonly T[], v: string | undefined): T | undefined {
  if (v === undefined || v === '') return undefined;
  if (!oneOf(values, v)) invalid(field, `${field} must be one of ${values.join(', ')}`);
  return v;
}

/** The list filters; a value outside its enum (or a malformed fixture_id) → 400 validation_failed naming it. */
export function fixtureFilter(req: { fixtureId?: string; type?: string; evidenceTier?: string; determinismClass?: string }): FixtureFilter {
  let fixtureId: string | undefined;
  if (req.fixtureId !== undefined && req.fixtureId !== '') {
    if (!FIXTURE_ID.test(req.fixtureId)) invalid('fixture_id', `fixture_id must match ${FIXTURE_ID.source}`);
    fixtureId = req.fixtureId;
  }
  return {
    fixtureId,
    type: enumFilter('type', FIXTURE_TYPES, req.type),
    evidenceTier: enumFilter('evidence_tier', EVIDENCE_TIERS, req.evidenceTier),
    determinismClass: enumFilter('determinism_class', DETERMINISM_CLASSES, req.determinismClass),
  };
}
