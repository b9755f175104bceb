import type { CheckoutStatus, UcpCheckout, UcpMessage } from '../domain/ucp-types';
import type { CheckoutOrigin } from './origin';

// A checkout session as commerce keeps it: the merchant's UCP checkout mirrored, plus the
// platform's own state (mandate, approval, payment stage, evidence head). Amounts are BIGINT
// micro-units of `currency`.

export const SESSION_MODES = ['live', 'shadow'] as const;
export type SessionMode = (typeof SESSION_MODES)[number];
export const APPROVAL_STATES = ['not_required', 'pending', 'approved', 'denied'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];
export type ApprovalReason = 'step_up_threshold' | 'new_merchant' | 'manual_mode' | 'merchant_escalation';
export const PAYMENT_STAGES = ['none', 'reserved', 'hold_placed', 'merchant_completed', 'settled', 'released'] as const;
export type PaymentStage = (typeof PAYMENT_STAGES)[number];

/** Who calls (the gateway authenticated it): an agent, or the operator (agentId empty). */
export interface Actor {
  agentId: string;
  operator: boolean;
}

/** What the buyer asked for (UCP create/update request views), resent in full on every PUT. */
export interface BuyerRequest {
  lineItems: Array<Record<string, unknown>>;
  buyer: Record<string, unknown> | null;
  context: Record<string, unknown> | null;
  discountCodes: string[];
}

export interface CheckoutSessionRecord {
  commerceSessionId: string;
  buyerAgentId: string;
  mandateId: string;
  merchantDomain: string;
  mode: SessionMode;
  status: CheckoutStatus;
  approval: ApprovalState;
  approvalReason: ApprovalReason | null;
  approvedTotal: bigint | null;
  approverId: string | null;
  approvalSignature: string | null;
  merchantCheckoutId: string;
  currency: string;
  total: bigint;
  listTotal: bigint;
  discountCodes: string[];
  lineItems: Array<Record<string, unknown>>;
  buyer: Record<string, unknown> | null;
  context: Record<string, unknown> | null;
  merchantCheckout: UcpCheckout;
  paymentStage: PaymentStage;
  reservedAmount: bigint | null;
  holdId: string | null;
  dealId: string | null;
  receiptId: string | null;
  orderId: string | null;
  continueUrl: string | null;
  failureReason: string | null;
  intentId: string | null;
  /** The contract or workflow run the checkout comes from (verified at create, never changed). */
  origin: CheckoutOrigin | null;
  evidenceHead: string;
  evidenceSeq: number;
  paymentUpdatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A completed purchase (purchases row): what the buyer paid the merchant and the settlement receipt. */
export interface PurchaseRecord {
  dealId: string;
  commerceSessionId: string;
  buyerAgentId: string;
  merchantDomain: string;
  amount: bigint;
  currency: string;
  receiptId: string;
  /** The wallet-ledger settlement receipt (exchange-signed), snake_case JSON as GET /v1/receipts answers. */
  receipt: Record<string, unknown>;
  orderId: string | null;
  completedAt: Date;
  /** The session's origin, copied at settlement. */
  origin: CheckoutOrigin | null;
}

/** The merchant-derived fields of a session, from one UCP checkout answer. */
export interface MerchantState {
  merchantCheckoutId: string;
  status: CheckoutStatus;
  currency: string;
  total: bigint;
  listTotal: bigint;
  merchantCheckout: UcpCheckout;
  continueUrl: string | null;
  messages: UcpMessage[];
}

export const TERMINAL_STATUSES: readonly CheckoutStatus[] = ['completed', 'canceled'];

export function isTerminal(status: CheckoutStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** A complete is moving money (reserved, held or merchant-completed): the cart may not change under it. */
export function paymentInFlight(stage: PaymentStage): boolean {
  return stage === 'reserved' || stage === 'hold_placed' || stage === 'merchant_completed';
}
