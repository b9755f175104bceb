import type { Queryable } from '@exchange/db';
import { originOf } from '../checkout/origin';
import type { FeedbackFact, OrderWebhookFact } from './timeline';
import type { PurchaseFacts } from './records.model';

// Reads of the rows a session's record and a purchase's timeline gather: purchases (by deal),
// intents, cases and their events, feedback, order webhooks. Other areas write these tables;
// transparency only reads them.

interface PurchaseRow {
  deal_id: string;
  commerce_session_id: string;
  buyer_agent_id: string;
  merchant_domain: string;
  amount: string;
  list_amount: string;
  refunded: string;
  currency: string;
  receipt_id: string;
  receipt: Record<string, unknown>;
  order_id: string | null;
  completed_at: Date;
  origin_contract_id: string | null;
  origin_workflow_run_id: string | null;
}

const PURCHASE_SQL = `SELECT deal_id, commerce_session_id, buyer_agent_id, merchant_domain, amount::text, list_amount::text, refunded::text,
  currency, receipt_id, receipt, order_id, completed_at, origin_contract_id, origin_workflow_run_id FROM purchases`;

const toPurchase = (r: PurchaseRow): PurchaseFacts => ({
  dealId: r.deal_id,
  commerceSessionId: r.commerce_session_id,
  buyerAgentId: r.buyer_agent_id,
  merchantDomain: r.merchant_domain,
  amount: BigInt(r.amount),
  listAmount: BigInt(r.list_amount),
  refunded: BigInt(r.refunded),
  currency: r.currency,
  receiptId: r.receipt_id,
  receipt: r.receipt,
  orderId: r.order_id,
  completedAt: r.completed_at,
  origin: originOf(r.origin_contract_id, r.origin_workflow_run_id),
});

export async function purchaseByDeal(db: Queryable, dealId: string): Promise<PurchaseFacts | null> {
  const { rows } = await db.query<PurchaseRow>(`${PURCHASE_SQL} WHERE deal_id = $1`, [dealId]);
  return rows.length === 0 ? null : toPurchase(rows[0]);
}

export async function purchaseBySession(db: Queryable, sessionId: string): Promise<PurchaseFacts | null> {
  const { rows } = await db.query<PurchaseRow>(`${PURCHASE_SQL} WHERE commerce_session_id = $1`, [sessionId]);
  return rows.length === 0 ? null : toPurchase(rows[0]);
}

/** The deal's case ids, oldest first. */
export async function caseIdsOfDeal(db: Queryable, dealId: string): Promise<string[]> {
  const { rows } = await db.query<{ case_id: string }>('SELECT case_id FROM purchase_cases WHERE deal_id = $1 ORDER BY created_at, case_id', [dealId]);
  return rows.map((r) => r.case_id);
}

export async function feedbackOfDeal(db: Queryable, dealId: string): Promise<FeedbackFact[]> {
  const { rows } = await db.query<{ feedback_id: string; rating: number; comment: string; created_at: Date }>(
    'SELECT feedback_id, rating, comment, created_at FROM feedback WHERE deal_id = $1 ORDER BY created_at, feedback_id',
    [dealId],
  );
  return rows.map((r) => ({ feedbackId: r.feedback_id, rating: r.rating, comment: r.comment, createdAt: r.created_at }));
}

export async function orderWebhooksOfSession(db: Queryable, sessionId: string): Promise<OrderWebhookFact[]> {
  const { rows } = await db.query<{ webhook_id: string; order_id: string; evidence_id: string | null; received_at: Date }>(
    'SELECT webhook_id, order_id, evidence_id, received_at FROM order_webhooks WHERE commerce_session_id = $1 ORDER BY received_at, webhook_id',
    [sessionId],
  );
  return rows.map((r) => ({ webhookId: r.webhook_id, orderId: r.order_id, evidenceId: r.evidence_id, receivedAt: r.received_at }));
}
