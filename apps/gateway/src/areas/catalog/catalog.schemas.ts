import { Type, type Static } from 'typebox';
import { Cursor, Limit, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';

// REST shapes of the market catalog (issue 6 §3, §5): contract templates, work-product templates
// (seeded) and the fixtures index (registry objects of type `fixture`).

export const FIXTURE_TYPES = ['unit_tests', 'golden_output', 'schema_validation', 'reference_dataset', 'benchmark', 'property_tests'] as const;
export const EVIDENCE_TIERS = ['self_reported', 'verifier_checked', 'reproducible', 'attested'] as const;
export const DETERMINISM_CLASSES = ['deterministic', 'bounded', 'nondeterministic'] as const;
export const FIXTURE_ID_PATTERN = '^[a-z0-9][a-z0-9._-]{0,127}$';

const T = '2026-11-21T18:00:00.000Z';
const MoneyOut = Type.Object({ amount: Type.String(), currency: Type.String() }, { additionalProperties: false });
const Tag = Type.String({ minLength: 1, maxLength: 64, examples: ['code'] });
const PageFields = { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) };
const Slug = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-z0-9][a-z0-9._-]{0,127}$', description, examples: [example] });

export const TemplateParams = Type.Object({ template_id: Slug('Template id (a stable slug)', 'code-change-with-tests') }, { additionalProperties: false });
export const ListTemplatesQuery = Type.Object({ ...PageFields, tag: Type.Optional(Tag) }, { additionalProperties: false });

const contractTemplateExample = {
  template_id: 'code-change-with-tests',
  name: 'Code change with tests',
  description: 'A focused change to a repository, delivered as a patch with tests that pass.',
  tags: ['code', 'tests'],
  acceptance_criteria: '- The patch applies cleanly to the named commit\n- New and existing tests pass',
  default_verification_mode: 'verifier',
  default_deadline: 'P3D',
  suggested_budget: { amount: '50', currency: 'CREDIT' },
  work_product_template_id: 'patch-with-tests',
  created_at: T,
  updated_at: T,
};
export const ContractTemplate = Type.Object(
  {
    template_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    acceptance_criteria: Type.String({ description: 'Markdown acceptance criteria a contract inherits' }),
    default_verification_mode: StringEnum(['verifier', 'buyer', 'auto'] as const),
    default_deadline: Type.String({ description: 'ISO 8601 duration: deadline = creation + this when the contract gives none' }),
    suggested_budget: Nullable(MoneyOut),
    work_product_template_id: Nullable(Type.String(), { description: 'The work-product template the result should follow' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A contract template (POST /v1/contracts `template_id` inherits its defaults)', examples: [contractTemplateExample] },
);
export type ContractTemplateJson = Static<typeof ContractTemplate>;
export const ContractTemplatePage = Type.Object(
  { data: Type.Array(ContractTemplate), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Contract templates by template_id ascending', examples: [{ data: [contractTemplateExample], next_cursor: null }] },
);

const workProductTemplateExample = {
  template_id: 'patch-with-tests',
  name: 'Patch with test report',
  description: 'A unified diff plus the test run that shows it works.',
  tags: ['code', 'tests'],
  payload_schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['base_commit', 'tests_passed'],
    properties: { base_commit: { type: 'string' }, tests_passed: { type: 'integer' } },
  },
  required_artifacts: ['patch (unified diff)', 'test log'],
  acceptance_criteria: '- The payload validates against payload_schema',
  created_at: T,
  updated_at: T,
};
export const WorkProductTemplate = Type.Object(
  {
    template_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    payload_schema: Type.Unknown({ description: 'JSON Schema (draft 2020-12) of the result payload, a JSON object' }),
    required_artifacts: Type.Array(Type.String(), { description: 'Artifacts the result should carry' }),
    acceptance_criteria: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'What a result should look like', examples: [workProductTemplateExample] },
);
export type WorkProductTemplateJson = Static<typeof WorkProductTemplate>;
export const WorkProductTemplatePage = Type.Object(
  { data: Type.Array(WorkProductTemplate), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Work-product templates by template_id ascending', examples: [{ data: [workProductTemplateExample], next_cursor: null }] },
);

export const ListFixturesQuery = Type.Object(
  {
    ...PageFields,
    fixture_id: Type.Optional(Type.String({ pattern: FIXTURE_ID_PATTERN, examples: ['json-extract-golden-1'] })),
    type: Type.Optional(StringEnum(FIXTURE_TYPES)),
    evidence_tier: Type.Optional(StringEnum(EVIDENCE_TIERS)),
    determinism_class: Type.Optional(StringEnum(DETERMINISM_CLASSES)),
  },
  { additionalProperties: false },
);

const fixtureExample = {
  fixture_id: 'json-extract-golden-1',
  type: 'golden_output',
  evidence_tier: 'reproducible',
  determinism_class: 'deterministic',
  spec: { input_ref: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', expected: { invoices: 12 } },
  object_id: 'obj_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  signer_agent_id: 'acme:agent:seller-1',
  tags: ['data'],
  created_at: T,
};
export const Fixture = Type.Object(
  {
    fixture_id: Type.String(),
    type: Type.String({ description: FIXTURE_TYPES.join(' | ') }),
    evidence_tier: Type.String({ description: EVIDENCE_TIERS.join(' | ') }),
    determinism_class: Type.String({ description: DETERMINISM_CLASSES.join(' | ') }),
    spec: Type.Unknown({ description: 'The fixture’s spec, a JSON object' }),
    object_id: Type.String({ description: 'The registry object it came from (GET /v1/objects/{object_id})' }),
    signer_agent_id: Type.String(),
    tags: Type.Array(Type.String()),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'A fixture indexed from the registry', examples: [fixtureExample] },
);
export type FixtureJson = Static<typeof Fixture>;
export const FixturePage = Type.Object(
  { data: Type.Array(Fixture), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Fixtures, newest first', examples: [{ data: [fixtureExample], next_cursor: null }] },
);

const fixtureSellerExample = {
  seller_id: 'acme:agent:seller-1',
  passed_verifications: 7,
  failed_verifications: 1,
  fixture_ids: ['json-extract-golden-1'],
  last_passed_at: T,
};
export const FixtureSeller = Type.Object(
  {
    seller_id: Type.String(),
    passed_verifications: Type.Integer({ description: 'Passed verifications on contracts naming a (matching) fixture' }),
    failed_verifications: Type.Integer(),
    fixture_ids: Type.Array(Type.String(), { description: 'Distinct fixtures the seller passed' }),
    last_passed_at: Timestamp,
  },
  { additionalProperties: false, examples: [fixtureSellerExample] },
);
export type FixtureSellerJson = Static<typeof FixtureSeller>;
export const FixtureSellerPage = Type.Object(
  { data: Type.Array(FixtureSeller), next_cursor: NextCursor },
  {
    additionalProperties: false,
    description: 'Sellers ranked by passed verifications, then latest pass, then seller_id',
    examples: [{ data: [fixtureSellerExample], next_cursor: null }],
  },
);
