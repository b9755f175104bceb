import { Type, type Static, type TSchema } from 'typebox';
import { AgentId, Cursor, Limit, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { Amount, Currency, IdempotencyKey } from '../../areas/wallets/wallets.schemas';

// REST shapes of the market areas (spec §4 Contracts, Listings, Offers, Results, Disputes,
// Verification; DESIGN §4 Market). The market service owns the domain checks and their codes
// (`invalid_deadline`, `invalid_eta`, `invalid_turnaround`, `invalid_score`,
// `invalid_seller_share`, `currency_mismatch`, …), so those fields are typed here but not
// range-checked: a schema failure would hide the specific code behind `validation_failed`.
// Shapes, unknown fields, enums and plain length limits are refused here.

export const CONTRACT_STATUSES = [
  'open',
  'awarded',
  'delivered',
  'accepted',
  'settled',
  'disputed',
  'refunded',
  'split',
  'cancelled',
  'expired',
  'corrected',
] as const;
export const VERIFICATION_MODES = ['verifier', 'buyer', 'auto'] as const;
export const ESCROW_STATUSES = ['none', 'held', 'settled', 'released'] as const;
export const OFFER_STATUSES = ['submitted', 'awarded', 'rejected', 'withdrawn'] as const;
export const RESULT_STATUSES = ['submitted', 'accepted', 'rejected'] as const;
export const DISPUTE_STATUSES = ['open', 'resolved'] as const;
export const DISPUTE_OUTCOMES = ['seller', 'buyer', 'split'] as const;
export const VERDICTS = ['pass', 'fail'] as const;
export const VERIFICATION_WINDOWS = ['all', '1h', '1d', '7d'] as const;

export type ContractStatusName = (typeof CONTRACT_STATUSES)[number];
export type VerificationModeName = (typeof VERIFICATION_MODES)[number];
export type EscrowStatusName = (typeof ESCROW_STATUSES)[number];
export type OfferStatusName = (typeof OFFER_STATUSES)[number];
export type ResultStatusName = (typeof RESULT_STATUSES)[number];
export type DisputeStatusName = (typeof DISPUTE_STATUSES)[number];
export type DisputeOutcomeName = (typeof DISPUTE_OUTCOMES)[number];
export type VerdictName = (typeof VERDICTS)[number];
export type VerificationWindowName = (typeof VERIFICATION_WINDOWS)[number];

const T = '2026-11-21T18:00:00.000Z';
const T_DEADLINE = '2026-11-28T18:00:00.000Z';
const BUYER = 'acme:agent:buyer-1';
const SELLER = 'acme:agent:seller-1';
const VERIFIER = 'acme:agent:verifier-1';
const CTR = 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const LST = 'lst_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const OFR = 'ofr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const RES = 'res_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const DSP = 'dsp_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const VRF = 'vrf_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const RPT = 'rpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const HLD = 'hld_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const RCPT = 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const SHA = 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const SIG = 'q3b1xB2p6oX0rVd8mW4m3z5cYVZ0k8w5Jm9T2Kc1cYb3oQm0d3n6eWfV3u2Hc1hY3l6r8wqQ0n2Xb8Qw3r5aAw==';

// ─── building blocks ────────────────────────────────────────────────────────────────────────

export const Money = Type.Object(
  { amount: Amount, currency: Currency },
  { additionalProperties: false, description: 'An amount and its currency', examples: [{ amount: '100', currency: 'CREDIT' }] },
);
const MoneyOut = Type.Object(
  { amount: Type.String({ description: 'Decimal string (at most 6 fraction digits)' }), currency: Type.String() },
  { additionalProperties: false },
);

const Title = Type.String({ minLength: 1, maxLength: 200, examples: ['Summarise 40 support tickets'] });
const Description = Type.String({ maxLength: 20_000, description: 'Free text (default "")' });
const Tags = Type.Array(
  Type.String({ minLength: 1, maxLength: 64, description: '`^[a-z0-9][a-z0-9._-]{0,63}$` (else 400 `validation_failed` from the market)' }),
  { maxItems: 20, description: '0-20 tags, deduplicated in order', examples: [['nlp', 'summaries']] },
);
const Turnaround = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'ISO 8601 duration such as `PT24H` or `P2D` (else 400 `invalid_turnaround`)',
  examples: ['PT24H'],
});
const LongText = (description: string, min = 1) => Type.String({ minLength: min, maxLength: 20_000, description });

const Key = Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` });

const ResourceId = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description, examples: [example] });

const ContractId = ResourceId('Contract id (`ctr_…`)', CTR);
const CatalogId = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-z0-9][a-z0-9._-]{0,127}$', description, examples: [example] });
const ListingId = ResourceId('Listing id (`lst_…`)', LST);
const OfferId = ResourceId('Offer id (`ofr_…`)', OFR);
const ResultId = ResourceId('Result id (`res_…`)', RES);
const DisputeId = ResourceId('Dispute id (`dsp_…`)', DSP);

const Page = <S extends TSchema>(item: S, description: string, example: unknown) =>
  Type.Object({ data: Type.Array(item), next_cursor: NextCursor }, { additionalProperties: false, description, examples: [{ data: [example], next_cursor: null }] });

// ─── params and queries ─────────────────────────────────────────────────────────────────────

export const ContractParams = Type.Object({ contract_id: ContractId }, { additionalProperties: false });
export const ListingParams = Type.Object({ listing_id: ListingId }, { additionalProperties: false });
export const OfferParams = Type.Object({ offer_id: OfferId }, { additionalProperties: false });
export const ResultParams = Type.Object({ result_id: ResultId }, { additionalProperties: false });
export const DisputeParams = Type.Object({ dispute_id: DisputeId }, { additionalProperties: false });
export const AwardParams = Type.Object({ contract_id: ContractId, offer_id: OfferId }, { additionalProperties: false });

const PageFields = { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) };

export const ListContractsQuery = Type.Object(
  { ...PageFields, buyer_id: Type.Optional(AgentId), seller_id: Type.Optional(AgentId), status: Type.Optional(StringEnum(CONTRACT_STATUSES)) },
  { additionalProperties: false },
);
export const ListListingsQuery = Type.Object(
  { ...PageFields, tag: Type.Optional(Type.String({ minLength: 1, maxLength: 64, examples: ['nlp'] })) },
  { additionalProperties: false },
);
export const ListOffersQuery = Type.Object(
  { ...PageFields, seller_id: Type.Optional(AgentId), status: Type.Optional(StringEnum(OFFER_STATUSES)) },
  { additionalProperties: false },
);
export const ListResultsQuery = Type.Object(
  { ...PageFields, seller_id: Type.Optional(AgentId), status: Type.Optional(StringEnum(RESULT_STATUSES)) },
  { additionalProperties: false },
);
export const ListDisputesQuery = Type.Object(
  { ...PageFields, opened_by: Type.Optional(AgentId), status: Type.Optional(StringEnum(DISPUTE_STATUSES)) },
  { additionalProperties: false },
);
export const ListVerifiersQuery = Type.Object(PageFields, { additionalProperties: false });
export const ListVerifierListingsQuery = Type.Object({ ...PageFields, verifier_id: Type.Optional(AgentId) }, { additionalProperties: false });
export const VerificationMetricsQuery = Type.Object(
  { window: Type.Optional(StringEnum(VERIFICATION_WINDOWS, { default: 'all', description: 'Over report creation time (default all)' })) },
  { additionalProperties: false },
);

// ─── request bodies ─────────────────────────────────────────────────────────────────────────

const partyNote = (field: string) =>
  `Defaults to the acting agent (the signing agent, or X-Agent-Id with the operator token); another agent than the acting one ` +
  `is 403 \`acting_agent_mismatch\`; neither → 400 \`validation_failed\` naming \`${field}\`.`;

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

export const KeyOnlyMarketBody = Type.Object({ idempotency_key: Key }, { additionalProperties: false, examples: [{ idempotency_key: 'award-001' }] });

export const CreateListingBody = Type.Object(
  {
    seller_id: Type.Optional({ ...AgentId, description: `The seller. ${partyNote('seller_id')}` }),
    title: Title,
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    price: Money,
    turnaround: Type.Optional(Turnaround),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Ticket summaries', tags: ['nlp'], price: { amount: '80', currency: 'CREDIT' }, turnaround: 'PT24H' }],
  },
);
export type CreateListingBodyJson = Static<typeof CreateListingBody>;

export const SubmitOfferBody = Type.Object(
  {
    seller_id: Type.Optional({ ...AgentId, description: `The seller. ${partyNote('seller_id')}` }),
    price: { ...Money, description: 'In the budget currency (else 400 `currency_mismatch`), at most the budget (else 400 `price_exceeds_budget`)' },
    eta: {
      ...Timestamp,
      description: 'When the result will be delivered: in the future and not after the contract deadline (else 400 `invalid_eta`, the latter with `deadline`)',
    },
    terms: Type.Optional(LongText('Free text (default "")', 0)),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [{ price: { amount: '90', currency: 'CREDIT' }, eta: T_DEADLINE, terms: 'Delivered as JSON', idempotency_key: 'offer-001' }],
  },
);
export type SubmitOfferBodyJson = Static<typeof SubmitOfferBody>;

export const SubmitResultBody = Type.Object(
  {
    seller_id: Type.Optional({ ...AgentId, description: `The awarded seller. ${partyNote('seller_id')}` }),
    summary: LongText('What was delivered'),
    artifact_refs: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 80, description: '`sha256:<64 hex>`' }), { maxItems: 100, examples: [[SHA]] }),
    ),
    payload: Type.Optional(Type.Unknown({ description: 'Any JSON value, at most 256 KiB serialized' })),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [{ summary: '40 summaries attached', artifact_refs: [SHA], payload: { summaries: 40 }, idempotency_key: 'result-001' }],
  },
);
export type SubmitResultBodyJson = Static<typeof SubmitResultBody>;

const CheckIn = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    ok: Type.Boolean(),
    detail: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

export const SubmitVerificationBody = Type.Object(
  {
    verifier_id: Type.Optional({ ...AgentId, description: `The signer. ${partyNote('verifier_id')}` }),
    result_id: ResultId,
    verdict: StringEnum(VERDICTS),
    score: Type.Number({ description: '0-1 (else 400 `invalid_score`)', examples: [0.92] }),
    checks: Type.Optional(Type.Array(CheckIn, { maxItems: 100, description: 'Default []; signed exactly as sent' })),
    signature: Type.String({
      minLength: 1,
      maxLength: 256,
      description:
        'Base64 ed25519 by an unrevoked key of `verifier_id` over canonical JSON of `{verifier_id, result_id, verdict, score, checks}` ' +
        '(checks exactly as sent, `[]` when omitted; an absent `detail` stays absent). Else 400 `report_signature_invalid`.',
    }),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [
      {
        verifier_id: VERIFIER,
        result_id: RES,
        verdict: 'pass',
        score: 0.92,
        checks: [{ name: 'format', ok: true }, { name: 'coverage', ok: true, detail: '40/40' }],
        signature: SIG,
      },
    ],
  },
);
export type SubmitVerificationBodyJson = Static<typeof SubmitVerificationBody>;

export const RegisterVerifierBody = Type.Object(
  {
    verifier_id: Type.Optional({ ...AgentId, description: `The verifier agent. ${partyNote('verifier_id')}` }),
    name: Title,
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    fee: Type.Optional(Money),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ name: 'Strict summary checker', tags: ['nlp'], fee: { amount: '2', currency: 'CREDIT' } }] },
);
export type RegisterVerifierBodyJson = Static<typeof RegisterVerifierBody>;

export const CreateVerifierListingBody = Type.Object(
  {
    verifier_id: Type.Optional({ ...AgentId, description: `A registered verifier (else 404 \`verifier_not_found\`). ${partyNote('verifier_id')}` }),
    title: Title,
    tags: Type.Optional(Tags),
    price: Money,
    turnaround: Turnaround,
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ title: 'Summary checks', tags: ['nlp'], price: { amount: '2', currency: 'CREDIT' }, turnaround: 'PT2H' }] },
);
export type CreateVerifierListingBodyJson = Static<typeof CreateVerifierListingBody>;

export const OpenDisputeBody = Type.Object(
  {
    opened_by: Type.Optional({ ...AgentId, description: `The buyer or the awarded seller. ${partyNote('opened_by')}` }),
    reason: LongText('Why'),
    evidence_refs: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 100, examples: [[SHA]] })),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ reason: 'Half of the summaries are missing', evidence_refs: [SHA], idempotency_key: 'dsp-001' }] },
);
export type OpenDisputeBodyJson = Static<typeof OpenDisputeBody>;

export const ResolveDisputeBody = Type.Object(
  {
    outcome: StringEnum(DISPUTE_OUTCOMES, { description: '`seller` (paid), `buyer` (refunded), `split` (seller_share_bps to the seller)' }),
    seller_share_bps: Type.Optional(
      Type.Integer({
        // The proto field is int32: larger values cannot be serialized. The market judges 1-9999.
        minimum: -2147483648,
        maximum: 2147483647,
        description: '1-9999, required for `split` and refused otherwise (400 `invalid_seller_share`)',
        examples: [3000],
      }),
    ),
    rationale: LongText('The arbitration decision'),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ outcome: 'split', seller_share_bps: 3000, rationale: '12 of 40 summaries delivered' }] },
);
export type ResolveDisputeBodyJson = Static<typeof ResolveDisputeBody>;

// ─── resources ──────────────────────────────────────────────────────────────────────────────

export const RESALE_REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
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

const listingExample = {
  listing_id: LST,
  seller_id: SELLER,
  title: 'Ticket summaries',
  description: '',
  tags: ['nlp'],
  price: { amount: '80', currency: 'CREDIT' },
  turnaround: 'PT24H',
  created_at: T,
  updated_at: T,
};
export const Listing = Type.Object(
  {
    listing_id: Type.String(),
    seller_id: Type.String(),
    title: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    price: MoneyOut,
    turnaround: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'What a seller offers to do, at what price', examples: [listingExample] },
);
export type ListingJson = Static<typeof Listing>;
export const ListingPage = Page(Listing, 'A page of listings', listingExample);

const offerExample = {
  offer_id: OFR,
  contract_id: CTR,
  seller_id: SELLER,
  price: { amount: '90', currency: 'CREDIT' },
  eta: T_DEADLINE,
  terms: 'Delivered as JSON',
  status: 'submitted',
  created_at: T,
  updated_at: T,
};
export const Offer = Type.Object(
  {
    offer_id: Type.String(),
    contract_id: Type.String(),
    seller_id: Type.String(),
    price: MoneyOut,
    eta: Timestamp,
    terms: Type.String(),
    status: StringEnum(OFFER_STATUSES),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A seller’s offer on an open contract', examples: [offerExample] },
);
export type OfferJson = Static<typeof Offer>;
export const OfferPage = Page(Offer, 'A page of offers', offerExample);

const resultExample = {
  result_id: RES,
  contract_id: CTR,
  seller_id: SELLER,
  summary: '40 summaries attached',
  artifact_refs: [SHA],
  payload: { summaries: 40 },
  status: 'submitted',
  created_at: T,
  updated_at: T,
};
export const Result = Type.Object(
  {
    result_id: Type.String(),
    contract_id: Type.String(),
    seller_id: Type.String(),
    summary: Type.String(),
    artifact_refs: Type.Array(Type.String()),
    payload: Type.Unknown({ description: 'The JSON value submitted, or null' }),
    status: StringEnum(RESULT_STATUSES),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A delivery against an awarded contract', examples: [resultExample] },
);
export type ResultJson = Static<typeof Result>;
export const ResultPage = Page(Result, 'A page of results', resultExample);

const reportExample = {
  report_id: RPT,
  contract_id: CTR,
  result_id: RES,
  verifier_id: VERIFIER,
  verdict: 'pass',
  score: 0.92,
  checks: [
    { name: 'format', ok: true },
    { name: 'coverage', ok: true, detail: '40/40' },
  ],
  signature: SIG,
  created_at: T,
};
export const VerificationReport = Type.Object(
  {
    report_id: Type.String(),
    contract_id: Type.String(),
    result_id: Type.String(),
    verifier_id: Type.String(),
    verdict: StringEnum(VERDICTS),
    score: Type.Number(),
    checks: Type.Array(
      Type.Object(
        { name: Type.String(), ok: Type.Boolean(), detail: Type.Optional(Type.String({ description: 'Absent when the check was sent without it' })) },
        { additionalProperties: false },
      ),
      { description: 'Exactly as signed: re-verify `signature` over canonical JSON of {verifier_id, result_id, verdict, score, checks}' },
    ),
    signature: Type.String(),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'A signed verification report', examples: [reportExample] },
);
export type VerificationReportJson = Static<typeof VerificationReport>;

export const VerificationMetrics = Type.Object(
  {
    window: StringEnum(VERIFICATION_WINDOWS),
    reports: Type.Integer(),
    passed: Type.Integer(),
    failed: Type.Integer(),
    pass_rate: Nullable(Type.Number(), { description: 'passed / reports; null without reports' }),
    median_latency_ms: Nullable(Type.Integer(), { description: 'Median of report time − result time; null without reports' }),
  },
  {
    additionalProperties: false,
    description: 'Verification metrics over the window',
    examples: [{ window: 'all', reports: 4, passed: 3, failed: 1, pass_rate: 0.75, median_latency_ms: 5400 }],
  },
);
export type VerificationMetricsJson = Static<typeof VerificationMetrics>;

const verifierExample = {
  verifier_id: VERIFIER,
  name: 'Strict summary checker',
  description: '',
  tags: ['nlp'],
  fee: { amount: '2', currency: 'CREDIT' },
  created_at: T,
  updated_at: T,
};
export const Verifier = Type.Object(
  {
    verifier_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    fee: Nullable(MoneyOut),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A verifier agent profile', examples: [verifierExample] },
);
export type VerifierJson = Static<typeof Verifier>;
export const VerifierPage = Page(Verifier, 'A page of verifiers', verifierExample);

const verifierListingExample = {
  verifier_listing_id: VRF,
  verifier_id: VERIFIER,
  title: 'Summary checks',
  tags: ['nlp'],
  price: { amount: '2', currency: 'CREDIT' },
  turnaround: 'PT2H',
  created_at: T,
  updated_at: T,
};
export const VerifierListing = Type.Object(
  {
    verifier_listing_id: Type.String(),
    verifier_id: Type.String(),
    title: Type.String(),
    tags: Type.Array(Type.String()),
    price: MoneyOut,
    turnaround: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A verification service a verifier offers', examples: [verifierListingExample] },
);
export type VerifierListingJson = Static<typeof VerifierListing>;
export const VerifierListingPage = Page(VerifierListing, 'A page of verifier listings', verifierListingExample);

const disputeExample = {
  dispute_id: DSP,
  contract_id: CTR,
  opened_by: BUYER,
  reason: 'Half of the summaries are missing',
  evidence_refs: [SHA],
  status: 'resolved',
  outcome: 'split',
  seller_share_bps: 3000,
  rationale: '12 of 40 summaries delivered',
  resolved_by: 'operator:default',
  resolved_at: T,
  receipt_id: RCPT,
  created_at: T,
  updated_at: T,
};
export const Dispute = Type.Object(
  {
    dispute_id: Type.String(),
    contract_id: Type.String(),
    opened_by: Type.String(),
    reason: Type.String(),
    evidence_refs: Type.Array(Type.String()),
    status: StringEnum(DISPUTE_STATUSES),
    outcome: Nullable(StringEnum(DISPUTE_OUTCOMES)),
    seller_share_bps: Nullable(Type.Integer()),
    rationale: Nullable(Type.String()),
    resolved_by: Nullable(Type.String(), { description: '`operator:<name>`' }),
    resolved_at: Nullable(Timestamp),
    receipt_id: Nullable(Type.String(), { description: 'The receipt the resolution produced, when money moved through escrow' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A dispute on a contract and its resolution', examples: [disputeExample] },
);
export type DisputeJson = Static<typeof Dispute>;
export const DisputePage = Page(Dispute, 'A page of disputes', disputeExample);
