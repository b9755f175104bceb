import { BUYER, CTR, DSP, Key, LongText, Page, partyNote, RCPT, SHA, T } from '../../lib/market/market-kit';
import { DISPUTE_OUTCOMES, DISPUTE_STATUSES } from '../../lib/market/market.schemas';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of Disputes (spec §4; shared market vocabulary in lib/market/market.schemas.ts).

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
