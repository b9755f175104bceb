import type { VerificationMode } from '../domain/model';

/** A built-in contract template (seeded by migration; id = slug). */
export interface ContractTemplate {
  templateId: string;
  name: string;
  description: string;
  tags: string[];
  acceptanceCriteria: string;
  defaultVerificationMode: VerificationMode;
  /** ISO 8601 duration added to the creation time when a contract gives no deadline. */
  defaultDeadline: string;
  suggestedBudget: { amount: bigint; currency: string } | null;
  workProductTemplateId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The shape a contract's result should follow. */
export interface WorkProductTemplate {
  templateId: string;
  name: string;
  description: string;
  tags: string[];
  /** JSON Schema (draft 2020-12) of the result payload. */
  payloadSchema: Record<string, unknown>;
  requiredArtifacts: string[];
  acceptanceCriteria: string;
  createdAt: Date;
  updatedAt: Date;
}

export const FIXTURE_TYPES = ['unit_tests', 'golden_output', 'schema_validation', 'reference_dataset', 'benchmark', 'property_tests'] as const;
export const EVIDENCE_TIERS = ['self_reported', 'verifier_checked', 'reproducible', 'attested'] as const;
export const DETERMINISM_CLASSES = ['deterministic', 'bounded', 'nondeterministic'] as const;

export type FixtureType = (typeof FIXTURE_TYPES)[number];
export type EvidenceTier = (typeof EVIDENCE_TIERS)[number];
export type DeterminismClass = (typeof DETERMINISM_CLASSES)[number];

/** A fixture of the index: a public registry object of type "fixture". */
export interface Fixture {
  fixtureId: string;
  type: FixtureType;
  evidenceTier: EvidenceTier;
  determinismClass: DeterminismClass;
  spec: Record<string, unknown>;
  objectId: string;
  signerAgentId: string;
  tags: string[];
  /** When the registry stored the object. */
  createdAt: Date;
}

/** The four filters of ListFixtures and ListFixtureSellers (undefined = any). */
export interface FixtureFilter {
  fixtureId?: string;
  type?: FixtureType;
  evidenceTier?: EvidenceTier;
  determinismClass?: DeterminismClass;
}

/** A seller's record on contracts naming a fixture. */
export interface FixtureSeller {
  sellerId: string;
  passedVerifications: number;
  failedVerifications: number;
  fixtureIds: string[];
  lastPassedAt: Date;
}
