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
