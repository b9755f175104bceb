import { marketV1Wire } from '@exchange/proto';
import { BUYER, CatalogId, ContractId, CTR, Description, HLD, Key, ListingId, LongText, MoneyOut, OFR, Page, partyNote, SELLER, SHA, T, T_DEADLINE, Tags, Title, VERIFIER } from '../../lib/market/market-kit';
import { CONTRACT_STATUSES, ESCROW_STATUSES, Money, VERIFICATION_MODES } from '../../lib/market/market.schemas';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of Contracts (spec §4; shared market vocabulary in lib/market/market.schemas.ts).

const labelsExample = { workflow_run_id: 'wfr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e', stage: 'translate', shard: '3', attempt: '1' };
/** The market's limits (apps/market/src/domain/labels.ts); control characters are refused there (400 `validation_failed`). */
const LabelsIn = Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 256 }), {
  maxProperties: 16,
  propertyNames: { pattern: '^[a-z0-9_.-]{1,64}$' },
  description:
    'Public labels of the contract, returned as given and carried by its events: at most 16; keys 1-64 characters of `a-z0-9_.-`, values 1-256 characters without control characters. The workflows service sets `workflow_run_id`, `stage`, `shard`, `attempt`',
  examples: [labelsExample],
});
const InputRefsIn = Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
  maxItems: 64,
  description: 'What the work is made from (e.g. result or artifact refs), at most 64 of 1-512 characters; returned as given',
  examples: [[SHA]],
});

export const CreateContractBody = Type.Object(
  {
    buyer_id: Type.Optional({ ...AgentId, description: `The buyer. ${partyNote('buyer_id')}` }),
    title: Title,
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    budget: Type.Optional({
      ...Money,
      description: 'The most the buyer pays (offers above it are refused). May be omitted with a `template_id` that suggests a budget',
    }),
    deadline: Type.Optional({
      ...Timestamp,
      description:
        'RFC 3339, strictly in the future (else 400 `invalid_deadline`). May be omitted with a `template_id` (deadline = now + the template’s `default_deadline`)',
    }),
    acceptance_criteria: Type.Optional(LongText('What the result must satisfy. May be omitted with a `template_id` (inherited)')),
    verification_mode: Type.Optional(
      StringEnum(VERIFICATION_MODES, {
        description: '`buyer` (default: the buyer signs the report), `verifier` (a registered verifier signs), `auto` (accepted on delivery)',
      }),
    ),
    verifier_id: Type.Optional({ ...AgentId, description: 'Required with mode `verifier` (a registered verifier, not the buyer); refused otherwise' }),
    listing_id: Type.Optional(ListingId),
    buyer_private: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Hide the buyer: the market mints a party alias (`anon:…`) and views for anyone but the buyer, the awarded seller and the operator show `buyer_id: null` and `buyer_alias`',
      }),
    ),
    template_id: Type.Optional(
      CatalogId(
        'A contract template (GET /v1/contract-templates): `tags`, `acceptance_criteria`, `verification_mode`, `description`, `budget` and `deadline` left out are inherited (404 `contract_template_not_found`)',
        'code-change-with-tests',
      ),
    ),
    work_product_template_id: Type.Optional(
      CatalogId('The work-product template the result should follow (default: the contract template’s)', 'patch-with-tests'),
    ),
    fixture_id: Type.Optional(
      Type.String({
        pattern: '^[a-z0-9][a-z0-9._-]{0,127}$',
        description: 'A fixture the work is checked against (GET /v1/fixtures; 404 `fixture_not_found`)',
        examples: ['json-extract-golden-1'],
      }),
    ),
    resale_of: Type.Optional({
      ...ContractId,
      description:
        'Resale: the contract whose awarded seller (the buyer here) subcontracts. Not its seller → 403 `resale_not_party`; parent not awarded/delivered → 409 `invalid_state`; too deep → 409 `resale_depth_exceeded`. Awards wait for an operator review',
    }),
    labels: Type.Optional(LabelsIn),
    input_refs: Type.Optional(InputRefsIn),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [
      {
        title: 'Summarise 40 support tickets',
        description: 'CSV attached by reference',
        tags: ['nlp', 'summaries'],
        budget: { amount: '100', currency: 'CREDIT' },
        deadline: T_DEADLINE,
        acceptance_criteria: 'One paragraph per ticket, under 80 words each',
        verification_mode: 'verifier',
        verifier_id: VERIFIER,
        labels: { project: 'support-q4' },
        input_refs: [SHA],
        idempotency_key: 'ctr-create-001',
      },
    ],
  },
);
export type CreateContractBodyJson = Static<typeof CreateContractBody>;

export const CancelContractBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, examples: ['no longer needed'] })), idempotency_key: Key },
  { additionalProperties: false, examples: [{ reason: 'no longer needed', idempotency_key: 'ctr-cancel-001' }] },
);
export type CancelContractBodyJson = Static<typeof CancelContractBody>;

// ─── resources ──────────────────────────────────────────────────────────────────────────────

export const RESALE_REVIEW_STATUSES = marketV1Wire.resaleReviewStatus.names;
export type ResaleReviewStatusName = (typeof RESALE_REVIEW_STATUSES)[number];

export const resaleReviewExample = {
  decision_ref: 'rld_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  contract_id: 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8f',
  resale_of: CTR,
  root_contract_id: CTR,
  depth: 1,
  lineage: [CTR],
  status: 'pending',
  decided_by: null,
  reason: null,
  decided_at: null,
  created_at: T,
  updated_at: T,
};
export const ResaleReview = Type.Object(
  {
    decision_ref: Type.String({ description: '`rld_…`' }),
    contract_id: Type.String({ description: 'The resale contract' }),
    resale_of: Type.String(),
    root_contract_id: Type.String({ description: 'The first contract of the chain' }),
    depth: Type.Integer({ description: '1 = resale of an original contract' }),
    lineage: Type.Array(Type.String(), { description: 'Every contract of the chain, root first, ending with resale_of' }),
    status: StringEnum(RESALE_REVIEW_STATUSES),
    decided_by: Nullable(Type.String({ description: '`operator:<name>`' })),
    reason: Nullable(Type.String()),
    decided_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'The operator review of a resale contract’s lineage (awards wait while pending; rejected cancels the contract)',
    examples: [resaleReviewExample],
  },
);
export type ResaleReviewJson = Static<typeof ResaleReview>;

const contractExample = {
  contract_id: CTR,
  buyer_id: BUYER,
  buyer_private: false,
  buyer_alias: null,
  title: 'Summarise 40 support tickets',
  description: 'CSV attached by reference',
  tags: ['nlp', 'summaries'],
  budget: { amount: '100', currency: 'CREDIT' },
  deadline: T_DEADLINE,
  acceptance_criteria: 'One paragraph per ticket, under 80 words each',
  verification_mode: 'verifier',
  verifier_id: VERIFIER,
  listing_id: null,
  status: 'awarded',
  seller_id: SELLER,
  awarded_offer_id: OFR,
  price: { amount: '90', currency: 'CREDIT' },
  hold_id: HLD,
  escrow_status: 'held',
  receipt_id: null,
  disputed_from: null,
  cancel_reason: null,
  created_at: T,
  updated_at: T,
  awarded_at: T,
  settled_at: null,
  template_id: 'code-change-with-tests',
  work_product_template_id: 'patch-with-tests',
  fixture_id: null,
  resale_of: null,
  resale_review: null,
  sandbox: true,
  corrected_at: null,
  correction_receipt_id: null,
  correction_reason: null,
  labels: {},
  input_refs: [],
};

export const Contract = Type.Object(
  {
    contract_id: Type.String(),
    buyer_id: Nullable(Type.String(), { description: 'null when the buyer is private and the viewer is not a party or the operator' }),
    buyer_private: Type.Boolean({ description: 'The buyer asked for privacy (see buyer_alias)' }),
    buyer_alias: Nullable(Type.String(), { description: 'The buyer’s party alias `anon:…` when private (a token: GET /v1/party_alias_tokens/{object_id})' }),
    title: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    budget: MoneyOut,
    deadline: Timestamp,
    acceptance_criteria: Type.String(),
    verification_mode: StringEnum(VERIFICATION_MODES),
    verifier_id: Nullable(Type.String()),
    listing_id: Nullable(Type.String()),
    status: StringEnum(CONTRACT_STATUSES),
    seller_id: Nullable(Type.String(), { description: 'Set at award' }),
    awarded_offer_id: Nullable(Type.String()),
    price: Nullable(MoneyOut, { description: 'The awarded price' }),
    hold_id: Nullable(Type.String(), { description: 'The escrow hold on the buyer’s wallet' }),
    escrow_status: StringEnum(ESCROW_STATUSES),
    receipt_id: Nullable(Type.String(), { description: 'The latest settlement or refund receipt (GET /v1/contracts/{id}/receipt)' }),
    disputed_from: Nullable(StringEnum(CONTRACT_STATUSES), { description: 'The status before the dispute' }),
    cancel_reason: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
    awarded_at: Nullable(Timestamp),
    settled_at: Nullable(Timestamp),
    template_id: Nullable(Type.String(), { description: 'The contract template it inherited from' }),
    work_product_template_id: Nullable(Type.String()),
    fixture_id: Nullable(Type.String()),
    resale_of: Nullable(Type.String(), { description: 'Resale: the parent contract' }),
    resale_review: Nullable(ResaleReview, { description: 'Resale contracts: the operator review of the lineage' }),
    sandbox: Type.Boolean({ description: 'Sandbox activity (excluded from the price index by default)' }),
    corrected_at: Nullable(Timestamp, { description: 'Erroneous clear: when the settlement was reversed' }),
    correction_receipt_id: Nullable(Type.String(), { description: 'Erroneous clear: the correction receipt' }),
    correction_reason: Nullable(Type.String()),
    // Written as the document shows it (a Type.Record's patternProperties would not match the Contract component).
    labels: Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' }, description: 'The labels given at creation (`{}` when none)' }),
    input_refs: Type.Array(Type.String(), { description: 'The input refs given at creation (`[]` when none)' }),
  },
  {
    additionalProperties: false,
    description:
      'A contract: open → awarded → delivered → accepted → settled, with cancelled, expired, disputed, refunded and split on the side, and corrected after an erroneous clear (operator)',
    examples: [contractExample],
  },
);
export type ContractJson = Static<typeof Contract>;
export const ContractPage = Page(Contract, 'A page of contracts', contractExample);
