import { commerceV1Wire } from '@exchange/proto';
import { Type, type Static } from 'typebox';
import { AgentId, Cursor, Limit, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { MERCHANT, T, UcpObject } from '../commerce/profile.schemas';
import { Amount, AmountOut, IdempotencyKey } from '../wallets/wallets.schemas';

// REST shapes of post-purchase cases (DESIGN §4 Commerce): a buyer's return, refund or chargeback
// case on a deal, open → under_review → approved | denied → closed, and its events. Amounts are
// exchange decimal strings; commerce checks them (400 `invalid_amount`).

const CASE = 'case_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const DEAL = 'deal_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const BUYER = 'acme:agent:buyer-1';
const Id = (description: string, example: string) => Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description, examples: [example] });
const EvidenceRef = Type.String({ minLength: 1, maxLength: 512, description: 'A reference to evidence: an artifact id, a sha256, a URL' });
const EvidenceRefs = (description: string) => Type.Array(EvidenceRef, { maxItems: 20, description });

export const CaseParams = Type.Object({ case_id: Id('Case id (`case_…`)', CASE) }, { additionalProperties: false });
export const CaseEventsQuery = Type.Object({ limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) }, { additionalProperties: false });

export const CreateCaseBody = Type.Object(
  {
    deal_id: Id('The purchase (`deal_…`) the acting agent bought', DEAL),
    type: StringEnum(commerceV1Wire.caseType.names, { description: '`return`, `refund` or `chargeback`; an approval credits the buyer for all three' }),
    reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why (kept on the case)' }),
    amount: Type.Optional({ ...Amount, description: 'Asked back (decimal string, > 0); default: what remains refundable of the purchase' }),
    evidence_refs: Type.Optional(EvidenceRefs('At most 20; more can be added until the case is decided')),
    idempotency_key: Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` }),
  },
  { additionalProperties: false, examples: [{ deal_id: DEAL, type: 'refund', reason: 'two of the roses arrived broken', amount: '20', evidence_refs: ['photo:sha256:9f2c…'] }] },
);
export type CreateCaseBodyJson = Static<typeof CreateCaseBody>;

export const UpdateCaseBody = Type.Object(
  {
    status: Type.Optional(
      StringEnum(['under_review', 'approved', 'denied', 'closed'] as const, { description: 'The move (operator only): open → under_review → approved | denied → closed' }),
    ),
    evidence_refs: Type.Optional(EvidenceRefs('Added to the case (the buyer or the operator, until it is decided)')),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Kept on the event of this update' })),
  },
  { additionalProperties: false, examples: [{ status: 'approved', note: 'photos confirm the damage' }] },
);

const caseExample = {
  case_id: CASE,
  deal_id: DEAL,
  buyer_agent_id: BUYER,
  merchant_domain: MERCHANT,
  type: 'refund',
  reason: 'two of the roses arrived broken',
  amount: '20',
  currency: 'USD',
  status: 'approved',
  evidence_refs: ['photo:sha256:9f2c…'],
  refund_state: 'credited',
  refund_receipt_id: 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8f',
  created_at: T,
  updated_at: T,
};

export const PostPurchaseCase = Type.Object(
  {
    case_id: Type.String(),
    deal_id: Type.String(),
    buyer_agent_id: AgentId,
    merchant_domain: Type.String(),
    type: StringEnum(commerceV1Wire.caseType.names),
    reason: Type.String(),
    amount: { ...AmountOut, description: 'Asked back, credited on approval (decimal string)' },
    currency: Type.String(),
    status: StringEnum(commerceV1Wire.caseStatus.names),
    evidence_refs: Type.Array(Type.String()),
    refund_state: StringEnum(commerceV1Wire.refundState.names, { description: '`none`; `pending` from the approval until the ledger credit is recorded; `credited`' }),
    refund_receipt_id: Nullable(Type.String(), { description: 'The wallet-ledger refund receipt (GET /v1/receipts/{id}), once credited' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A post-purchase case', examples: [caseExample] },
);
export type PostPurchaseCaseJson = Static<typeof PostPurchaseCase>;

export const CaseUpdate = Type.Object(
  {
    case: PostPurchaseCase,
    refund_receipt: Nullable(UcpObject('The exchange-signed refund receipt (kind `purchase_refund`), exactly as signed', { receipt_id: 'rcpt_…', kind: 'purchase_refund' }), {
      description: 'When this update credited the buyer; otherwise null',
    }),
  },
  { additionalProperties: false, description: 'The case after the update, and the refund receipt when it credited the buyer', examples: [{ case: caseExample, refund_receipt: null }] },
);
export type CaseUpdateJson = Static<typeof CaseUpdate>;

const eventExample = {
  event_id: 'evt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d90',
  case_id: CASE,
  seq: 3,
  type: 'status_changed',
  from_status: 'under_review',
  to_status: 'approved',
  actor: 'operator',
  note: 'photos confirm the damage',
  evidence_refs: [],
  amount: '20',
  receipt_id: null,
  at: T,
};

export const CaseEvent = Type.Object(
  {
    event_id: Type.String(),
    case_id: Type.String(),
    seq: Type.Integer({ minimum: 1, description: '1, 2, … per case' }),
    type: StringEnum(['opened', 'status_changed', 'evidence_added', 'refund_credited', 'refund_refused'] as const),
    from_status: Nullable(StringEnum(commerceV1Wire.caseStatus.names)),
    to_status: Nullable(StringEnum(commerceV1Wire.caseStatus.names)),
    actor: Type.String({ description: 'The acting agent id, `operator`, or `system:commerce` (the credit)' }),
    note: Nullable(Type.String()),
    evidence_refs: Type.Array(Type.String(), { description: 'Added by this event' }),
    amount: Nullable(AmountOut, { description: 'opened/approved: the case amount; refund_credited: what was credited' }),
    receipt_id: Nullable(Type.String(), { description: 'refund_credited: the refund receipt' }),
    at: Timestamp,
  },
  { additionalProperties: false, description: 'One change of a case', examples: [eventExample] },
);
export type CaseEventJson = Static<typeof CaseEvent>;

export const CaseEventPage = Type.Object(
  { data: Type.Array(CaseEvent), next_cursor: NextCursor },
  { additionalProperties: false, description: 'A case’s events, oldest first', examples: [{ data: [eventExample], next_cursor: null }] },
);
