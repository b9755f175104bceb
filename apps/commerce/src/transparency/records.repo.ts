import type { Queryable } from '@exchange/db';
import type { CaseEventFact, FeedbackFact, OrderWebhookFact } from './timeline';
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
}

const PURCHASE_SQL = `SELECT deal_id, commerce_session_id, buyer_agent_id, merchant_domain, amount::text, list_amount::text, refunded::text,
  currency, receipt_id, receipt, order_id, completed_at FROM purchases`;

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

export async function caseEventsOfDeal(db: Queryable, dealId: string): Promise<CaseEventFact[]> {
  const { rows } = await db.query<{
    event_id: string; case_id: string; seq: number; type: string; from_status: string | null; to_status: string | null; actor: string;
    note: string | null; evidence_refs: string[] | null; amount: string | null; receipt_id: string | null; at: Date;
  }>(
    `SELECT e.event_id, e.case_id, e.seq, e.type, e.from_status, e.to_status, e.actor, e.note, e.evidence_refs, e.amount::text, e.receipt_id, e.at
       FROM case_events e JOIN purchase_cases c ON c.case_id = e.case_id
      WHERE c.deal_id = $1 ORDER BY e.at, e.case_id, e.seq`,
    [dealId],
  );
  return rows.map((r) => ({
    eventId: r.event_id, caseId: r.case_id, seq: r.seq, type: r.type, fromStatus: r.from_status, toStatus: r.to_status, actor: r.actor,
    note: r.note, evidenceRefs: r.evidence_refs ?? [], amount: r.amount === null ? null : BigInt(r.amount), receiptId: r.receipt_id, at: r.at,
  }));
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
