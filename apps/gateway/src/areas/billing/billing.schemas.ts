import { walletV1MeteringWire } from '@exchange/proto';
import { type Static, Type } from 'typebox';
import { MoneyOut } from '../../lib/market/market-kit';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { EXCHANGE_PUB, MEV, SIG, SUBJECT, T } from '../metering/metering.schemas';
import { Signature } from '../registry/registry.schemas';

// REST shapes of Billing (operator only; spec "Billing", DESIGN §4): projections of an agent's
// meter events over a UTC month, the subscription period receipt they attach to, its emission
// (exchange-signed registry object) and reconciliation against the meter events.

export const PROJECTION_STATUSES = walletV1MeteringWire.billingProjectionStatus.names;
export const PERIOD_RECEIPT_STATUSES = walletV1MeteringWire.periodReceiptStatus.names;
export const DIFFERENCE_KINDS = walletV1MeteringWire.reconciliationDifferenceKind.names;

export const PRJ = 'prj_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const PRC = 'prc_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const RCPT_OBJ = 'sha256:3c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5';
const EVENTS_SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const T_EMIT = '2026-12-01T09:00:00.000Z';

export const Period = Type.String({
  minLength: 7,
  maxLength: 7,
  pattern: '^[0-9]{4}-[0-9]{2}$',
  description: 'A UTC month `YYYY-MM` (a month that does not exist or has not begun: 400 `invalid_period`)',
  examples: ['2026-11'],
});
const ResourceId = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description, examples: [example] });
export const ProjectionId = ResourceId('Billing projection id (`prj_…`)', PRJ);
export const PeriodReceiptId = ResourceId('Period receipt id (`prc_…`)', PRC);

// ---- Requests ----

export const CreateProjectionBody = Type.Object(
  { agent_id: { ...AgentId, description: 'The agent billed (the meter events’ `subject_agent_id`)' }, period: Period },
  { additionalProperties: false, examples: [{ agent_id: SUBJECT, period: '2026-11' }] },
);
export const AttachProjectionBody = Type.Object({ projection_id: ProjectionId }, { additionalProperties: false, examples: [{ projection_id: PRJ }] });
export const EmitReceiptBody = Type.Object(
  { agent_id: AgentId, period: Period },
  { additionalProperties: false, examples: [{ agent_id: SUBJECT, period: '2026-11' }] },
);

export const PresentedReceiptBody = Type.Object(
  {
    payload: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description: 'The `payload` of the receipt’s registry object, as it was signed' }),
    signature: { ...Signature, description: 'The exchange’s base64 ed25519 signature over the canonical JSON of `payload`' },
  },
  { additionalProperties: false },
);
export const ReconcileBody = Type.Object(
  {
    period_receipt_id: Type.Optional({ ...PeriodReceiptId, description: 'A stored, emitted receipt (exactly one of this and `receipt`)' }),
    receipt: Type.Optional({ ...PresentedReceiptBody, description: 'A receipt as presented: its signed payload and signature (exactly one of this and `period_receipt_id`)' }),
  },
  { additionalProperties: false, examples: [{ period_receipt_id: PRC }] },
);
export type ReconcileBodyJson = Static<typeof ReconcileBody>;

// ---- Resources ----

const itemExample = { object_id: MEV, meter: 'llm.tokens', epoch: '2026-11a', occurred_at: T, quantity: '1200', unit_price: '0.000125', amount: '0.15', currency: 'CREDIT' };
const lineExample = { meter: 'llm.tokens', epoch: '2026-11a', unit_price: '0.000125', currency: 'CREDIT', quantity: '1200', amount: '0.15', event_count: 1 };
const projectionExample = {
  projection_id: PRJ,
  agent_id: SUBJECT,
  period: '2026-11',
  status: 'draft',
  lines: [lineExample],
  totals: [{ amount: '0.15', currency: 'CREDIT' }],
  items: [itemExample],
  event_count: 1,
  events_sha256: EVENTS_SHA,
  computed_at: T_EMIT,
  period_receipt_id: null,
  created_at: T_EMIT,
  updated_at: T_EMIT,
};

export const BillingItem = Type.Object(
  {
    object_id: Type.String({ description: 'The meter event' }),
    meter: Type.String(),
    epoch: Type.String(),
    occurred_at: Timestamp,
    quantity: Type.String({ description: 'The event’s quantity as an integer string (as the signed receipt carries it)' }),
    unit_price: Type.String(),
    amount: Type.String({ description: 'quantity × unit_price, exact (decimal string)' }),
    currency: Type.String(),
  },
  { additionalProperties: false, description: 'One priced meter event of a projection', examples: [itemExample] },
);

export const BillingLine = Type.Object(
  {
    meter: Type.String(),
    epoch: Type.String(),
    unit_price: Type.String(),
    currency: Type.String(),
    quantity: Type.String({ description: 'Σ quantity, a decimal string (a sum may exceed JSON’s safe integers)' }),
    amount: Type.String({ description: 'Σ amount (decimal string)' }),
    event_count: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, description: 'The items of one (meter, epoch): an epoch boundary inside the period gives two lines', examples: [lineExample] },
);

export const BillingProjection = Type.Object(
  {
    projection_id: Type.String(),
    agent_id: Type.String(),
    period: Type.String(),
    status: StringEnum(PROJECTION_STATUSES, { description: '`draft` (computed), `attached` (to its period receipt), `superseded` (replaced there), `emitted`' }),
    lines: Type.Array(BillingLine, { description: 'Sorted by (meter, epoch)' }),
    totals: Type.Array(MoneyOut, { description: 'One per currency, sorted by currency' }),
    items: Type.Array(BillingItem, { description: 'Sorted by (occurred_at, object_id)' }),
    event_count: Type.Integer({ minimum: 0 }),
    events_sha256: Type.String({ description: 'Hex sha256 of the sorted meter event ids joined by "\\n" (emit compares it to find a stale projection)' }),
    computed_at: Timestamp,
    period_receipt_id: Nullable(Type.String(), { description: 'The period receipt it was attached to; null while a draft' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'Σ quantity × epoch price of an agent’s meter events over a UTC month', examples: [projectionExample] },
);
export type BillingProjectionJson = Static<typeof BillingProjection>;

const receiptPayloadExample = { agent_id: SUBJECT, period: '2026-11', projection: { lines: [lineExample], items: [itemExample], totals: [{ amount: '0.15', currency: 'CREDIT' }] } };
const receiptExample = {
  period_receipt_id: PRC,
  agent_id: SUBJECT,
  period: '2026-11',
  status: 'emitted',
  projection_id: PRJ,
  projection: { ...projectionExample, status: 'emitted', period_receipt_id: PRC },
  object_id: RCPT_OBJ,
  payload: receiptPayloadExample,
  signature: SIG,
  signer_public_key: EXCHANGE_PUB,
  emitted_at: T_EMIT,
  created_at: T_EMIT,
  updated_at: T_EMIT,
};

export const PeriodReceipt = Type.Object(
  {
    period_receipt_id: Type.String(),
    agent_id: Type.String(),
    period: Type.String(),
    status: StringEnum(PERIOD_RECEIPT_STATUSES, { description: '`draft` (a projection attached) or `emitted` (signed; the agent’s period is closed)' }),
    projection_id: Type.String({ description: 'The attached projection' }),
    projection: BillingProjection,
    object_id: Nullable(Type.String(), { description: 'The registry object (`subscription_period_receipt`) once emitted, else null' }),
    payload: Nullable(Type.Unknown(), { description: 'The payload as signed, once emitted, else null' }),
    signature: Nullable(Type.String(), { description: 'Base64 ed25519 by the exchange key over the canonical JSON of `payload`' }),
    signer_public_key: Nullable(Type.String(), { description: 'The exchange public key (as `/health` publishes it)' }),
    emitted_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'The subscription period receipt of one agent and period', examples: [receiptExample] },
);
export type PeriodReceiptJson = Static<typeof PeriodReceipt>;

const differenceExample = {
  kind: 'missing',
  ref: MEV,
  receipt: null,
  recomputed: itemExample,
  detail: 'a meter event of the agent and period that the receipt does not list',
};
const reconciliationExample = {
  period_receipt_id: PRC,
  agent_id: SUBJECT,
  period: '2026-11',
  consistent: false,
  signature_valid: true,
  differences: [differenceExample],
  receipt_totals: [{ amount: '0', currency: 'CREDIT' }],
  recomputed_totals: [{ amount: '0.15', currency: 'CREDIT' }],
  receipt_event_count: 0,
  recomputed_event_count: 1,
  reconciled_at: T_EMIT,
};

export const ReconciliationDifference = Type.Object(
  {
    kind: StringEnum(DIFFERENCE_KINDS, {
      description:
        '`missing` (a meter event the receipt does not list), `extra` (an item that is no meter event of the agent and period), ' +
        '`repriced` (not its epoch’s price), `altered` (meter, epoch, quantity or time differ), `total_mismatch` (a line or total ' +
        'is not its sum), `event_invalid` / `epoch_table_invalid` (a stored object no longer verifies), `signature_invalid`',
    }),
    ref: Type.String({ description: 'The meter event, or the line’s/total’s key (`meter/epoch`, `total/CREDIT`)' }),
    receipt: Type.Unknown({ description: 'What the receipt says (null when absent)' }),
    recomputed: Type.Unknown({ description: 'What recomputing from the meter events gives (null when absent)' }),
    detail: Type.String(),
  },
  { additionalProperties: false, description: 'One difference between a receipt and its recomputation', examples: [differenceExample] },
);

export const Reconciliation = Type.Object(
  {
    period_receipt_id: Type.String(),
    agent_id: Type.String(),
    period: Type.String(),
    consistent: Type.Boolean({ description: 'No differences' }),
    signature_valid: Type.Boolean(),
    differences: Type.Array(ReconciliationDifference),
    receipt_totals: Type.Array(MoneyOut),
    recomputed_totals: Type.Array(MoneyOut),
    receipt_event_count: Type.Integer({ minimum: 0 }),
    recomputed_event_count: Type.Integer({ minimum: 0 }),
    reconciled_at: Timestamp,
  },
  { additionalProperties: false, description: 'A period receipt recomputed from the meter events, every difference listed', examples: [reconciliationExample] },
);
export type ReconciliationJson = Static<typeof Reconciliation>;
