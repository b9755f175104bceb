// The money side of a checkout complete (README "Purchase saga"): a live session's payment moves
// none → reserved → hold_placed → merchant_completed → settled, or ends released. Amounts are
// BIGINT micro-units of the session currency.

export const PAYMENT_STAGES = ['none', 'reserved', 'hold_placed', 'merchant_completed', 'settled', 'released'] as const;
export type PaymentStage = (typeof PAYMENT_STAGES)[number];

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
}

/** The columns of a checkout session the saga reads (its own SQL, purchase.repo.ts). */
export interface PaymentState {
  sessionId: string;
  buyerAgentId: string;
  mandateId: string;
  merchantDomain: string;
  mode: 'live' | 'shadow';
  status: string;
  merchantCheckoutId: string;
  currency: string;
  total: bigint;
  listTotal: bigint;
  /** The merchant's latest UCP checkout object. */
  merchantCheckout: Record<string, unknown>;
  paymentStage: PaymentStage;
  reservedAmount: bigint | null;
  holdId: string | null;
  dealId: string | null;
  receiptId: string | null;
  orderId: string | null;
  /** Set when the merchant refused or failed: the hold is (being) released. */
  failureReason: string | null;
  paymentUpdatedAt: Date | null;
}
