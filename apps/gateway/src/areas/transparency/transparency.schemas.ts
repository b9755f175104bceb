import { commerceV1Wire } from '@exchange/proto';
import { Type, type Static } from 'typebox';
import { AgentId, Cursor, Limit, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { CheckoutSession, Purchase, SessionId } from '../commerce/checkout.schemas';
import { MerchantDomain, T, UcpObject } from '../commerce/profile.schemas';
import { Currency } from '../wallets/wallets.schemas';

// REST shapes of commerce transparency (DESIGN §4 Commerce): shadow compare, the monthly and
// per-agent rollups, a session's full record and a purchase's timeline. Amounts are exchange
// decimal strings; counts are integers.

const SESSION = 'cs_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const DEAL = 'deal_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const BUYER = 'acme:agent:buyer-1';
const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Decimal = (description: string) => Type.String({ description: `Decimal string: ${description}` });
const WINDOW_NOTE = 'A UTC month `YYYY-MM`; anything else is 400 `invalid_window`';

// ─── shadow compare ─────────────────────────────────────────────────────────────────────────

export const ShadowCompareQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Window start (inclusive); default `to` − 30 days' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Window end (exclusive); default now. At most 366 days after `from`' })),
    merchant_domain: Type.Optional(MerchantDomain),
    buyer_agent_id: Type.Optional({ ...AgentId, description: 'Operator: only this buyer. An agent sees its own sessions (another buyer: 403 `acting_agent_mismatch`)' }),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);

const snapshotExample = {
  commerce_session_id: SESSION,
  status: 'ready_for_complete',
  approval: 'not_required',
  currency: 'USD',
  total: '63',
  list_total: '70',
  savings: '7',
  discount_codes: ['10OFF'],
  unavailable_items: [],
  created_at: T,
};

export const SessionSnapshot = Type.Object(
  {
    commerce_session_id: Type.String(),
    status: StringEnum(commerceV1Wire.checkoutStatus.names),
    approval: StringEnum(commerceV1Wire.approvalState.names),
    currency: Type.String(),
    total: Decimal('the merchant’s total'),
    list_total: Decimal('the total before discounts'),
    savings: Decimal('list_total − total'),
    discount_codes: Type.Array(Type.String(), { description: 'Upper-cased, sorted' }),
    unavailable_items: Type.Array(Type.String(), { description: 'Item ids the merchant reported out of stock or not sold (its messages)' }),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'What a session stood at, as shadow compare reads it', examples: [snapshotExample] },
);

export const SHADOW_FIELDS = ['status', 'approval', 'currency', 'total', 'list_total', 'savings', 'discount_codes', 'unavailable_items'] as const;

const comparisonExample = {
  merchant_domain: 'sandbox-merchant.local',
  buyer_agent_id: BUYER,
  cart_key: 'e'.repeat(64),
  shadow: snapshotExample,
  live: { ...snapshotExample, commerce_session_id: 'cs_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8f', total: '70', savings: '0', discount_codes: [] },
  differences: [
    { field: 'total', shadow: '63', live: '70' },
    { field: 'savings', shadow: '7', live: '0' },
    { field: 'discount_codes', shadow: '10OFF', live: '' },
  ],
};

export const ShadowComparison = Type.Object(
  {
    merchant_domain: Type.String(),
    buyer_agent_id: Type.String(),
    cart_key: Type.String({ description: 'sha256 hex of the JSON of the sorted [item id, quantity] pairs of the cart' }),
    shadow: SessionSnapshot,
    live: Nullable(SessionSnapshot, { description: 'The live session of the same buyer, merchant and cart closest in time in the window; null when none' }),
    differences: Type.Array(
      Type.Object(
        { field: StringEnum(SHADOW_FIELDS), shadow: Type.String(), live: Type.String() },
        { additionalProperties: false, description: 'A field whose values differ (lists comma-joined)' },
      ),
    ),
  },
  { additionalProperties: false, description: 'A shadow session against its live counterpart', examples: [comparisonExample] },
);

export const ShadowCompare = Type.Object(
  {
    from: Timestamp,
    to: Timestamp,
    comparisons: Type.Array(ShadowComparison),
    summary: Type.Object(
      {
        shadow_sessions: Count('Shadow sessions in the window (and filters)'),
        matched: Count('Those with a live counterpart'),
        with_differences: Count('Those whose counterpart differs'),
      },
      { additionalProperties: false, description: 'Over the whole window, not just this page' },
    ),
    next_cursor: NextCursor,
  },
  {
    additionalProperties: false,
    description: 'Shadow sessions of a window against the live ones',
    examples: [{ from: '2026-10-22T18:00:00.000Z', to: T, comparisons: [comparisonExample], summary: { shadow_sessions: 1, matched: 1, with_differences: 1 }, next_cursor: null }],
  },
);

// ─── rollups ────────────────────────────────────────────────────────────────────────────────

export const MonthlyRollupQuery = Type.Object({ window: Type.String({ description: WINDOW_NOTE, examples: ['2026-11'] }) }, { additionalProperties: false });

const currencyExample = {
  currency: 'USD',
  spend: '82.345678',
  savings: '10',
  purchases: 2,
  escalations: 2,
  approvals_denied: 1,
  returns: 1,
  refunds: 1,
  chargebacks: 0,
  refunded: '20',
};

export const CurrencyRollup = Type.Object(
  {
    currency: Type.String(),
    spend: Decimal('paid by purchases completed in the month'),
    savings: Decimal('their list amounts − paid'),
    purchases: Count('Purchases completed in the month'),
    escalations: Count('Sessions whose approval was requested (step-up) in the month'),
    approvals_denied: Count('Approvals denied in the month'),
    returns: Count('Return cases opened in the month'),
    refunds: Count('Refund cases opened in the month'),
    chargebacks: Count('Chargeback cases opened in the month'),
    refunded: Decimal('credited back to buyers by cases whose refund was credited in the month'),
  },
  { additionalProperties: false, description: 'One currency’s figures of a month', examples: [currencyExample] },
);

export const MonthlyRollup = Type.Object(
  { window: Type.String(), from: Timestamp, to: Timestamp, currencies: Type.Array(CurrencyRollup, { description: 'Currencies with any activity, by code' }) },
  {
    additionalProperties: false,
    description: 'A UTC month of commerce, per currency',
    examples: [{ window: '2026-09', from: '2026-09-01T00:00:00.000Z', to: '2026-10-01T00:00:00.000Z', currencies: [currencyExample] }],
  },
);

export const SpendSavingsQuery = Type.Object(
  {
    window: Type.Optional(Type.String({ description: `${WINDOW_NOTE}; absent: all time`, examples: ['2026-11'] })),
    agent_id: Type.Optional(AgentId),
    currency: Type.Optional(Currency),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);

const agentExample = { agent_id: BUYER, currency: 'USD', spend: '82.345678', savings: '10', purchases: 2, refunded: '20', net_spend: '62.345678' };

export const AgentSpendSavings = Type.Object(
  {
    agent_id: Type.String(),
    currency: Type.String(),
    spend: Decimal('paid by the agent’s purchases completed in the window'),
    savings: Decimal('list − paid of those purchases'),
    purchases: Count('Purchases completed in the window'),
    refunded: Decimal('credited back to the agent in the window'),
    net_spend: Decimal('spend − refunded (negative when the refunds are of earlier purchases)'),
  },
  { additionalProperties: false, description: 'One buyer agent’s spend and savings in one currency', examples: [agentExample] },
);

export const SpendSavingsPage = Type.Object(
  { window: Nullable(Type.String(), { description: 'The month, or null for all time' }), data: Type.Array(AgentSpendSavings), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Spend and savings per agent and currency, by agent id then currency', examples: [{ window: '2026-09', data: [agentExample], next_cursor: null }] },
);

// ─── a session's record and a purchase's timeline ───────────────────────────────────────────

export const TransparencySessionParams = Type.Object({ commerce_session_id: SessionId }, { additionalProperties: false });
export const TimelineParams = Type.Object(
  { deal_id: Type.String({ minLength: 1, maxLength: 200, description: 'The purchase (`deal_…`)', examples: [DEAL] }) },
  { additionalProperties: false },
);

const lifecycleExample = { seq: 1, kind: 'created', from: null, to: 'ready_for_complete/not_required/none', reason: null, at: T };

export const LifecycleEntry = Type.Object(
  {
    seq: Type.Integer({ minimum: 1 }),
    kind: Type.String({ description: '`created`, `updated`, `canceled`, `approval_requested`, `approval_decided`, `completed` or `payment_failed`' }),
    from: Nullable(Type.String(), { description: 'The previous entry’s `to` (null for the first)' }),
    to: Type.String({ description: 'The state after the change: `<status>/<approval>/<payment_stage>`' }),
    reason: Nullable(Type.String(), { description: 'The approval reason or decision, or the payment failure code' }),
    at: Timestamp,
  },
  { additionalProperties: false, description: 'One state change of a session, written in the transaction that made it', examples: [lifecycleExample] },
);

const evidenceRefExample = { evidence_id: 'evd_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e', seq: 1, kind: 'merchant_request', operation: 'create_checkout', content_sha256: 'b'.repeat(64), hash: 'c'.repeat(64), recorded_at: T };

export const EvidenceRef = Type.Object(
  {
    evidence_id: Type.String(),
    seq: Type.Integer({ minimum: 1 }),
    kind: Type.String(),
    operation: Type.String(),
    content_sha256: Type.String({ description: 'sha256 hex of the canonical JSON of the stored message (not shown here)' }),
    hash: Type.String({ description: 'The chain hash (sha256 of prev_hash ‖ content_sha256)' }),
    recorded_at: Timestamp,
  },
  { additionalProperties: false, description: 'A reference to one evidence item (its hashes, not its content)', examples: [evidenceRefExample] },
);

const intentExample = {
  intent_id: 'int_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  agent_id: BUYER,
  description: 'Red roses for the office, under 100 USD',
  merchants: ['sandbox-merchant.local'],
  skus: ['bouquet_roses'],
  budget: { amount: '100', currency: 'USD' },
  requires_refundability: false,
  expires_at: '2026-12-01T00:00:00.000Z',
  created_at: T,
};

export const TransparencyIntent = Type.Object(
  {
    intent_id: Type.String(),
    agent_id: Type.String(),
    description: Type.String(),
    merchants: Type.Array(Type.String()),
    skus: Type.Array(Type.String()),
    budget: Type.Object({ amount: Type.String(), currency: Type.String() }, { additionalProperties: false }),
    requires_refundability: Type.Boolean(),
    expires_at: Timestamp,
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'The intent the session named', examples: [intentExample] },
);

export const SessionTransparency = Type.Object(
  {
    session: CheckoutSession,
    lifecycle: Type.Array(LifecycleEntry),
    evidence: Type.Array(EvidenceRef),
    chain_valid: Type.Boolean({ description: 'Whether the evidence chain recomputes and reaches the session’s head (as the artifacts route checks)' }),
    purchase: Nullable(Purchase, { description: 'The purchase, once completed' }),
    intent: Nullable(TransparencyIntent, { description: 'The intent the session named' }),
    case_ids: Type.Array(Type.String(), { description: 'Post-purchase cases of the purchase, oldest first' }),
  },
  {
    additionalProperties: false,
    description: 'Everything the exchange holds about one checkout session (operator)',
    examples: [
      {
        session: (CheckoutSession as { examples?: unknown[] }).examples?.[0],
        lifecycle: [lifecycleExample],
        evidence: [evidenceRefExample],
        chain_valid: true,
        purchase: null,
        intent: intentExample,
        case_ids: [],
      },
    ],
  },
);

const timelineExample = { at: T, type: 'session.created', source_id: SESSION, details: { seq: 1, status: 'ready_for_complete', approval: 'not_required', payment_stage: 'none', total: '70', currency: 'USD' } };

export const TimelineEntry = Type.Object(
  {
    at: Timestamp,
    type: Type.String({ description: '`session.<kind>`, `order_webhook`, `receipt`, `case.<event type>` or `feedback`' }),
    source_id: Type.String({ description: 'The session, webhook, receipt, case or feedback id' }),
    details: UcpObject('What happened (the source’s fields)', timelineExample.details),
  },
  { additionalProperties: false, description: 'One event of a purchase', examples: [timelineExample] },
);

export const PurchaseTimeline = Type.Object(
  { deal_id: Type.String(), commerce_session_id: Type.String(), entries: Type.Array(TimelineEntry, { description: 'Oldest first; ties in a stable order' }) },
  { additionalProperties: false, description: 'Every state change, webhook, receipt, case event and feedback of a purchase', examples: [{ deal_id: DEAL, commerce_session_id: SESSION, entries: [timelineExample] }] },
);

export type ShadowCompareJson = Static<typeof ShadowCompare>;
export type SessionSnapshotJson = Static<typeof SessionSnapshot>;
export type MonthlyRollupJson = Static<typeof MonthlyRollup>;
export type SpendSavingsPageJson = Static<typeof SpendSavingsPage>;
export type SessionTransparencyJson = Static<typeof SessionTransparency>;
export type PurchaseTimelineJson = Static<typeof PurchaseTimeline>;
