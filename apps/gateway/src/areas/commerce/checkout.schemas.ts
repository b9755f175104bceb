import { commerceV1Wire } from '@exchange/proto';
import { Type, type Static } from 'typebox';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { IdempotencyKey } from '../wallets/wallets.schemas';
import { MERCHANT, MerchantDomain, T, UcpObject } from './profile.schemas';

// REST shapes of checkout sessions (DESIGN §4 Commerce): the exchange's mirror of a merchant's
// UCP checkout, with the platform's own approval and payment state. UCP parts of a request
// (`line_items`, `buyer`, `context`, `payment`) are validated by commerce against the UCP
// schemas (400 `ucp_payload_invalid`); here only their outline and sizes.

const SESSION = 'cks_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const MANDATE = 'mdt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const BUYER = 'acme:agent:buyer-1';

export const Id = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description, examples: [example] });
export const SessionId = Id('Checkout session id (`cks_…`)', SESSION);
export const MandateId = Id('Mandate id (`mdt_…`)', MANDATE);

const Key = Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` });
const DiscountCode = Type.String({ minLength: 1, maxLength: 64, examples: ['WELCOME10'] });
const DiscountCodes = Type.Array(DiscountCode, { maxItems: 20, description: 'Discount codes (replace earlier ones; matching is case-insensitive at the merchant)' });

/** UCP line item, create/update view: the item's id and a quantity (other UCP fields pass through). */
const LineItem = Type.Object(
  {
    item: Type.Object({ id: Type.String({ minLength: 1, maxLength: 256, examples: ['sku-espresso-beans-1kg'] }) }, { additionalProperties: true }),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  },
  { additionalProperties: true },
);
const LineItems = Type.Array(LineItem, { minItems: 1, maxItems: 100, description: 'UCP line items: `[{item: {id}, quantity}]`' });
const Buyer = UcpObject('UCP buyer (`first_name`, `last_name`, `email`, `phone_number`)', { email: 'buyer@example.com' });
const Context = UcpObject('UCP context (`address_country`, `postal_code`, `language`, `currency`, …)', { address_country: 'US' });

export const SessionParams = Type.Object({ commerce_session_id: SessionId }, { additionalProperties: false });
export const SessionQuery = Type.Object(
  { refresh: Type.Optional(Type.Boolean({ description: 'Read the merchant’s session again (UCP get) before answering' })) },
  { additionalProperties: false },
);

const CONTRACT = 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const RUN = 'run_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';

/** Where a checkout comes from: exactly one of a contract or a workflow run the buyer takes part in. */
export const CheckoutOrigin = Type.Object(
  {
    contract_id: Type.Optional(Id('A market contract whose buyer or awarded seller is the buyer (`ctr_…`)', CONTRACT)),
    workflow_run_id: Type.Optional(Id('A workflow run the buyer owns (`run_…`)', RUN)),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description:
      'Exactly one of `contract_id` or `workflow_run_id` (else 400 `validation_failed`). A contract the buyer is neither the buyer ' +
      'nor the awarded seller of is 403 `origin_not_allowed`, an unknown one 404 `contract_not_found`; a run that is unknown or ' +
      'not the buyer’s is 404 `workflow_run_not_found`. Fixed at create; copied into the purchase.',
    examples: [{ contract_id: CONTRACT }],
  },
);
export type CheckoutOriginJson = Static<typeof CheckoutOrigin>;

const lineItemsExample = [{ item: { id: 'sku-espresso-beans-1kg' }, quantity: 2 }];

export const CreateCheckoutBody = Type.Object(
  {
    buyer_agent_id: Type.Optional({ ...AgentId, description: 'Defaults to the acting agent; another agent is 403 `acting_agent_mismatch`' }),
    mandate_id: MandateId,
    merchant_domain: MerchantDomain,
    line_items: LineItems,
    buyer: Type.Optional(Buyer),
    context: Type.Optional(Context),
    discount_codes: Type.Optional(DiscountCodes),
    mode: Type.Optional(StringEnum(commerceV1Wire.sessionMode.names, { description: '`live` (default) or `shadow` (never completed; compared with live sessions)' })),
    intent_id: Type.Optional(Id('Commerce intent this checkout serves: create, update and complete outside it are 403 `intent_*` (unknown 404 `intent_not_found`)', 'int_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e')),
    origin: Type.Optional(CheckoutOrigin),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ mandate_id: MANDATE, merchant_domain: MERCHANT, line_items: lineItemsExample, discount_codes: ['WELCOME10'] }] },
);

export const UpdateCheckoutBody = Type.Object(
  {
    line_items: Type.Optional(LineItems),
    buyer: Type.Optional(Buyer),
    context: Type.Optional(Context),
    discount_codes: Type.Optional({ ...DiscountCodes, description: 'Present (possibly empty) replaces the codes' }),
    idempotency_key: Key,
  },
  { additionalProperties: false, description: 'Absent fields keep their value (the merchant gets the full resource)', examples: [{ line_items: [{ item: { id: 'sku-espresso-beans-1kg' }, quantity: 3 }] }] },
);

export const CompleteCheckoutBody = Type.Object(
  {
    payment: Type.Optional(UcpObject('UCP payment (`instruments[]`); default: an instrument of the merchant’s first payment handler', { instruments: [] })),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{}] },
);

export const CancelCheckoutBody = Type.Object({ idempotency_key: Key }, { additionalProperties: false, examples: [{}] });

export const ApprovalBody = Type.Object(
  {
    decision: StringEnum(commerceV1Wire.approvalDecision.names),
    approver_id: { ...AgentId, description: 'The mandate’s signer; must be the acting agent (403 `acting_agent_mismatch`)' },
    signature: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Base64 ed25519 by `approver_id` over canonical JSON {commerce_session_id, decision, approver_id, total, currency} (else 400 `approval_signature_invalid`)',
    }),
  },
  { additionalProperties: false, examples: [{ decision: 'approve', approver_id: 'acme:agent:owner', signature: 'MEUCIQDx…' }] },
);

export const DiscountBody = Type.Object(
  { codes: { ...DiscountCodes, minItems: 1 }, idempotency_key: Key },
  { additionalProperties: false, examples: [{ codes: ['WELCOME10'] }] },
);

const sessionExample = {
  commerce_session_id: SESSION,
  buyer_agent_id: BUYER,
  mandate_id: MANDATE,
  merchant_domain: MERCHANT,
  mode: 'live',
  status: 'ready_for_complete',
  approval: 'not_required',
  approval_reason: null,
  merchant_checkout_id: 'chk_123',
  currency: 'USD',
  total: '34.2',
  list_total: '38',
  savings: '3.8',
  discount_codes: ['WELCOME10'],
  merchant_checkout: { id: 'chk_123', status: 'ready_for_complete', currency: 'USD', line_items: [], totals: [] },
  payment_stage: 'none',
  hold_id: null,
  deal_id: null,
  receipt_id: null,
  order_id: null,
  continue_url: null,
  evidence_head: 'a'.repeat(64),
  intent_id: null,
  origin: { contract_id: CONTRACT },
  failure_reason: null,
  created_at: T,
  updated_at: T,
};

const Opt = (description: string) => Nullable(Type.String(), { description });

export const CheckoutSession = Type.Object(
  {
    commerce_session_id: Type.String(),
    buyer_agent_id: Type.String(),
    mandate_id: Type.String(),
    merchant_domain: Type.String(),
    mode: StringEnum(commerceV1Wire.sessionMode.names),
    status: StringEnum(commerceV1Wire.checkoutStatus.names, { description: 'The merchant’s UCP checkout status' }),
    approval: StringEnum(commerceV1Wire.approvalState.names, { description: 'The platform’s step-up approval state' }),
    approval_reason: Opt('Why approval is pending: `step_up_threshold`, `new_merchant`, `manual_mode` or `merchant_escalation`'),
    merchant_checkout_id: Type.String({ description: 'The merchant’s checkout id (UCP `id`)' }),
    currency: Type.String(),
    total: Type.String({ description: 'Decimal string: the merchant’s total' }),
    list_total: Type.String({ description: 'Decimal string: the total before discounts' }),
    savings: Type.String({ description: 'Decimal string: list_total − total' }),
    discount_codes: Type.Array(Type.String()),
    merchant_checkout: UcpObject('The merchant’s latest UCP checkout object', sessionExample.merchant_checkout),
    payment_stage: StringEnum(commerceV1Wire.paymentStage.names, { description: 'Where the payment of a live session stands' }),
    hold_id: Opt('The wallet hold of a complete in flight'),
    deal_id: Opt('The purchase, once completed'),
    receipt_id: Opt('The settlement receipt, once completed'),
    order_id: Opt('The merchant’s order id, once completed'),
    continue_url: Opt('Where a buyer continues at the merchant (escalation)'),
    evidence_head: Type.String({ description: 'sha256 hex of the last evidence item (the chain head)' }),
    intent_id: Opt('The commerce intent this checkout serves'),
    origin: Nullable(CheckoutOrigin, { description: 'The contract or workflow run this checkout comes from, when create named one' }),
    failure_reason: Opt('Why a complete failed at the merchant (its message codes), when the hold was released'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A checkout session mirrored from a merchant’s UCP checkout', examples: [sessionExample] },
);
export type CheckoutSessionJson = Static<typeof CheckoutSession>;

const purchaseExample = {
  deal_id: 'deal_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  commerce_session_id: SESSION,
  buyer_agent_id: BUYER,
  merchant_domain: MERCHANT,
  amount: '34.2',
  currency: 'USD',
  receipt_id: 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  receipt: { receipt_id: 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e' },
  order_id: 'ord_1',
  completed_at: T,
  origin: { contract_id: CONTRACT },
};

export const Purchase = Type.Object(
  {
    deal_id: Type.String(),
    commerce_session_id: Type.String(),
    buyer_agent_id: Type.String(),
    merchant_domain: Type.String(),
    amount: Type.String({ description: 'Decimal string' }),
    currency: Type.String(),
    receipt_id: Type.String(),
    receipt: UcpObject('The exchange-signed settlement receipt (wallet-ledger), exactly as signed', purchaseExample.receipt),
    order_id: Opt('The merchant’s order id'),
    completed_at: Timestamp,
    origin: Nullable(CheckoutOrigin, { description: 'The session’s origin, copied at settlement' }),
  },
  { additionalProperties: false, description: 'A completed purchase: the merchant was paid from the buyer’s wallet', examples: [purchaseExample] },
);
export type PurchaseJson = Static<typeof Purchase>;

export const CompletedCheckout = Type.Object(
  { session: CheckoutSession, purchase: Type.Optional({ ...Purchase, description: 'Present once the merchant completed and the payment settled' }) },
  { additionalProperties: false, description: 'The session after complete, and its purchase', examples: [{ session: { ...sessionExample, status: 'completed', payment_stage: 'settled' }, purchase: purchaseExample }] },
);

export const DiscountResult = Type.Object(
  {
    session: CheckoutSession,
    applied: Type.Array(Type.String(), { description: 'Codes the merchant applied' }),
    rejected: Type.Array(
      Type.Object({ code: Type.String(), reason: Type.String({ description: 'The merchant’s UCP message code, e.g. `discount_code_expired`' }) }, { additionalProperties: false }),
      { description: 'Codes the merchant refused' },
    ),
  },
  {
    additionalProperties: false,
    description: 'The session after the codes were sent, and what the merchant made of each',
    examples: [{ session: sessionExample, applied: ['WELCOME10'], rejected: [{ code: 'OLD5', reason: 'discount_code_expired' }] }],
  },
);
