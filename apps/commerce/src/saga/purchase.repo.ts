import type { Queryable } from '@exchange/db';
import type { PaymentStage, PaymentState, PurchaseRecord } from './purchase.model';

// The saga's own reads and writes: the payment columns of checkout_sessions (always under the
// session's row lock, taken by lockPayment), the mandate's spent/reserved, and purchases.

interface PaymentRow {
  commerce_session_id: string;
  buyer_agent_id: string;
  mandate_id: string;
  merchant_domain: string;
  mode: 'live' | 'shadow';
  status: string;
  merchant_checkout_id: string;
  currency: string;
  total: string;
  list_total: string;
  merchant_checkout: Record<string, unknown>;
  payment_stage: PaymentStage;
  reserved_amount: string | null;
  hold_id: string | null;
  deal_id: string | null;
  receipt_id: string | null;
  order_id: string | null;
  failure_reason: string | null;
  payment_updated_at: Date | null;
}

const PAYMENT_COLUMNS = `commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, mode, status, merchant_checkout_id, currency,
  total, list_total, merchant_checkout, payment_stage, reserved_amount, hold_id, deal_id, receipt_id, order_id, failure_reason, payment_updated_at`;

const toState = (r: PaymentRow): PaymentState => ({
  sessionId: r.commerce_session_id,
  buyerAgentId: r.buyer_agent_id,
  mandateId: r.mandate_id,
  merchantDomain: r.merchant_domain,
  mode: r.mode,
  status: r.status,
  merchantCheckoutId: r.merchant_checkout_id,
  currency: r.currency,
  total: BigInt(r.total),
  listTotal: BigInt(r.list_total),
  merchantCheckout: r.merchant_checkout,
  paymentStage: r.payment_stage,
  reservedAmount: r.reserved_amount === null ? null : BigInt(r.reserved_amount),
  holdId: r.hold_id,
  dealId: r.deal_id,
  receiptId: r.receipt_id,
  orderId: r.order_id,
  failureReason: r.failure_reason,
  paymentUpdatedAt: r.payment_updated_at,
});

/** The session's payment state, its row locked until the transaction ends (concurrent completes of one session queue here). */
export async function lockPayment(db: Queryable, sessionId: string): Promise<PaymentState | null> {
  const { rows } = await db.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM checkout_sessions WHERE commerce_session_id = $1 FOR UPDATE`, [sessionId]);
  return rows.length === 0 ? null : toState(rows[0]);
}

export async function readPayment(db: Queryable, sessionId: string): Promise<PaymentState | null> {
  const { rows } = await db.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM checkout_sessions WHERE commerce_session_id = $1`, [sessionId]);
  return rows.length === 0 ? null : toState(rows[0]);
}

/** The payment columns a step sets (undefined = unchanged); payment_updated_at and updated_at always move. */
export interface PaymentChange {
  paymentStage?: PaymentStage;
  reservedAmount?: bigint;
  dealId?: string;
  holdId?: string | null;
  receiptId?: string;
  orderId?: string | null;
  failureReason?: string | null;
  status?: string;
  merchantCheckout?: Record<string, unknown>;
}

const CHANGE_COLUMNS: Record<keyof PaymentChange, string> = {
  paymentStage: 'payment_stage',
  reservedAmount: 'reserved_amount',
  dealId: 'deal_id',
  holdId: 'hold_id',
  receiptId: 'receipt_id',
  orderId: 'order_id',
  failureReason: 'failure_reason',
  status: 'status',
  merchantCheckout: 'merchant_checkout',
};

export async function updatePayment(db: Queryable, sessionId: string, change: PaymentChange, now: Date): Promise<void> {
  const values: unknown[] = [sessionId, now];
  const sets = ['payment_updated_at = $2', 'updated_at = $2'];
  for (const [key, value] of Object.entries(change) as Array<[keyof PaymentChange, unknown]>) {
    if (value === undefined) continue;
    const json = key === 'merchantCheckout';
    values.push(value === null ? null : json ? JSON.stringify(value) : typeof value === 'bigint' ? value.toString() : value);
    sets.push(`${CHANGE_COLUMNS[key]} = $${values.length}${json ? '::jsonb' : ''}`);
  }
  await db.query(`UPDATE checkout_sessions SET ${sets.join(', ')} WHERE commerce_session_id = $1`, values);
}

/** Moves the mandate's reservation by `delta` (the CHECK spent + reserved <= total_limit is the last guard). */
export async function addReserved(db: Queryable, mandateId: string, delta: bigint, now: Date): Promise<void> {
  await db.query('UPDATE mandates SET reserved = reserved + $2, updated_at = $3 WHERE mandate_id = $1', [mandateId, delta.toString(), now]);
}

/**
 * A settlement under the mandate: spent += amount, reserved -= amount, exhausted once the total is
 * reached. True when this settlement exhausted it (the caller writes the status_changed event).
 */
export async function spendReserved(db: Queryable, mandateId: string, amount: bigint, now: Date): Promise<boolean> {
  const { rows } = await db.query<{ exhausted: boolean }>(
    `UPDATE mandates SET spent = spent + $2, reserved = reserved - $2, updated_at = $3,
       status = CASE WHEN status = 'active' AND spent + $2 >= total_limit THEN 'exhausted' ELSE status END
     WHERE mandate_id = $1
     RETURNING status = 'exhausted' AND spent - $2 < total_limit AS exhausted`,
    [mandateId, amount.toString(), now],
  );
  return rows[0]?.exhausted === true;
}

/** Settled purchases under the mandate since `since` (micro-units). */
export async function purchasedSince(db: Queryable, mandateId: string, since: Date): Promise<bigint> {
  const { rows } = await db.query<{ sum: string | null }>('SELECT SUM(amount)::text AS sum FROM purchases WHERE mandate_id = $1 AND completed_at >= $2', [mandateId, since]);
  return BigInt(rows[0]?.sum ?? '0');
}

export async function hasPurchasedFrom(db: Queryable, buyerAgentId: string, merchantDomain: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM purchases WHERE buyer_agent_id = $1 AND merchant_domain = $2 LIMIT 1', [buyerAgentId, merchantDomain]);
  return rows.length > 0;
}

export async function insertPurchase(db: Queryable, p: PurchaseRecord, mandateId: string, listAmount: bigint): Promise<void> {
  await db.query(
    `INSERT INTO purchases (deal_id, commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, amount, list_amount, currency, receipt_id, receipt, order_id, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12)`,
    [p.dealId, p.commerceSessionId, p.buyerAgentId, mandateId, p.merchantDomain, p.amount.toString(), listAmount.toString(), p.currency, p.receiptId, JSON.stringify(p.receipt), p.orderId, p.completedAt],
  );
}

export async function getPurchase(db: Queryable, sessionId: string): Promise<PurchaseRecord | null> {
  const { rows } = await db.query<{
    deal_id: string; commerce_session_id: string; buyer_agent_id: string; merchant_domain: string; amount: string; currency: string;
    receipt_id: string; receipt: Record<string, unknown>; order_id: string | null; completed_at: Date;
  }>('SELECT deal_id, commerce_session_id, buyer_agent_id, merchant_domain, amount, currency, receipt_id, receipt, order_id, completed_at FROM purchases WHERE commerce_session_id = $1', [sessionId]);
  if (rows.length === 0) return null;
  const r = rows[0];
  return {
    dealId: r.deal_id, commerceSessionId: r.commerce_session_id, buyerAgentId: r.buyer_agent_id, merchantDomain: r.merchant_domain,
    amount: BigInt(r.amount), currency: r.currency, receiptId: r.receipt_id, receipt: r.receipt, orderId: r.order_id, completedAt: r.completed_at,
  };
}

/**
 * The payment instrument of the attempt `dealId`, kept in its mandate_check evidence item at
 * reserve: a complete resumed after a crash sends the merchant the same body again.
 */
export async function attemptPayment(db: Queryable, sessionId: string, dealId: string): Promise<Record<string, unknown> | null> {
  const { rows } = await db.query<{ payment: Record<string, unknown> | null }>(
    `SELECT content->'payment' AS payment FROM evidence
     WHERE commerce_session_id = $1 AND kind = 'mandate_check' AND content->>'deal_id' = $2 ORDER BY seq DESC LIMIT 1`,
    [sessionId, dealId],
  );
  return rows[0]?.payment ?? null;
}

/** Live sessions whose payment is in flight and has not moved since `olderThan`, oldest first. */
export async function stalePayments(db: Queryable, olderThan: Date, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ commerce_session_id: string }>(
    `SELECT commerce_session_id FROM checkout_sessions
     WHERE payment_stage IN ('reserved', 'hold_placed', 'merchant_completed') AND (payment_updated_at IS NULL OR payment_updated_at <= $1)
     ORDER BY payment_updated_at NULLS FIRST LIMIT $2`,
    [olderThan, limit],
  );
  return rows.map((r) => r.commerce_session_id);
}
