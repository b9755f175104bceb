import type { Queryable } from '@exchange/db';
import { originColumns } from '../checkout/origin';
import type { PaymentStage, PurchaseRecord } from '../checkout/session.model';

// The saga's own SQL: the payment columns of checkout_sessions (always under the session's row
// lock, taken with sessions.repo.ts getSession forUpdate), the mandate's spent/reserved, purchases
// (their reads are checkout's, sessions.repo.ts) and the in-flight sessions for recovery.

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

export async function insertPurchase(db: Queryable, p: PurchaseRecord, mandateId: string, listAmount: bigint): Promise<void> {
  await db.query(
    `INSERT INTO purchases (deal_id, commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, amount, list_amount, currency, receipt_id, receipt, order_id, completed_at,
       origin_contract_id, origin_workflow_run_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14)`,
    [
      p.dealId, p.commerceSessionId, p.buyerAgentId, mandateId, p.merchantDomain, p.amount.toString(), listAmount.toString(), p.currency, p.receiptId, JSON.stringify(p.receipt), p.orderId, p.completedAt,
      originColumns(p.origin).contractId, originColumns(p.origin).workflowRunId,
    ],
  );
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
