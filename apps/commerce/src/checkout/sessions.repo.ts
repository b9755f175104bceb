import type { Queryable } from '@exchange/db';
import type { CheckoutStatus, UcpCheckout } from '../domain/ucp-types';
import { originColumns, originOf } from './origin';
import type { ApprovalReason, ApprovalState, CheckoutSessionRecord, PaymentStage, SessionMode, PurchaseRecord } from './session.model';

// The checkout_sessions table (and the reads of purchases checkout needs). BIGINT columns arrive
// as strings from pg and become bigint here; JSON columns as parsed objects.

interface SessionRow {
  commerce_session_id: string;
  buyer_agent_id: string;
  mandate_id: string;
  merchant_domain: string;
  mode: SessionMode;
  status: CheckoutStatus;
  approval: ApprovalState;
  approval_reason: ApprovalReason | null;
  approved_total: string | null;
  approver_id: string | null;
  approval_signature: string | null;
  merchant_checkout_id: string;
  currency: string;
  total: string;
  list_total: string;
  discount_codes: string[] | null;
  line_items: Array<Record<string, unknown>>;
  buyer: Record<string, unknown> | null;
  context: Record<string, unknown> | null;
  merchant_checkout: UcpCheckout;
  payment_stage: PaymentStage;
  reserved_amount: string | null;
  hold_id: string | null;
  deal_id: string | null;
  receipt_id: string | null;
  order_id: string | null;
  continue_url: string | null;
  failure_reason: string | null;
  intent_id: string | null;
  origin_contract_id: string | null;
  origin_workflow_run_id: string | null;
  evidence_head: string;
  evidence_seq: number;
  payment_updated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

function toRecord(r: SessionRow): CheckoutSessionRecord {
  return {
    commerceSessionId: r.commerce_session_id,
    buyerAgentId: r.buyer_agent_id,
    mandateId: r.mandate_id,
    merchantDomain: r.merchant_domain,
    mode: r.mode,
    status: r.status,
    approval: r.approval,
    approvalReason: r.approval_reason,
    approvedTotal: big(r.approved_total),
    approverId: r.approver_id,
    approvalSignature: r.approval_signature,
    merchantCheckoutId: r.merchant_checkout_id,
    currency: r.currency,
    total: BigInt(r.total),
    listTotal: BigInt(r.list_total),
    discountCodes: r.discount_codes ?? [],
    lineItems: r.line_items,
    buyer: r.buyer,
    context: r.context,
    merchantCheckout: r.merchant_checkout,
    paymentStage: r.payment_stage,
    reservedAmount: big(r.reserved_amount),
    holdId: r.hold_id,
    dealId: r.deal_id,
    receiptId: r.receipt_id,
    orderId: r.order_id,
    continueUrl: r.continue_url,
    failureReason: r.failure_reason,
    intentId: r.intent_id,
    origin: originOf(r.origin_contract_id, r.origin_workflow_run_id),
    evidenceHead: r.evidence_head,
    evidenceSeq: r.evidence_seq,
    paymentUpdatedAt: r.payment_updated_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Columns a checkout change may set (the saga's payment columns are its own). */
export interface SessionChange {
  status?: CheckoutStatus;
  approval?: ApprovalState;
  approvalReason?: ApprovalReason | null;
  approvedTotal?: bigint | null;
  approverId?: string | null;
  approvalSignature?: string | null;
  currency?: string;
  total?: bigint;
  listTotal?: bigint;
  discountCodes?: string[];
  lineItems?: Array<Record<string, unknown>>;
  buyer?: Record<string, unknown> | null;
  context?: Record<string, unknown> | null;
  merchantCheckout?: UcpCheckout;
  continueUrl?: string | null;
}

const COLUMNS: Record<keyof SessionChange, { column: string; json?: boolean }> = {
  status: { column: 'status' },
  approval: { column: 'approval' },
  approvalReason: { column: 'approval_reason' },
  approvedTotal: { column: 'approved_total' },
  approverId: { column: 'approver_id' },
  approvalSignature: { column: 'approval_signature' },
  currency: { column: 'currency' },
  total: { column: 'total' },
  listTotal: { column: 'list_total' },
  discountCodes: { column: 'discount_codes' },
  lineItems: { column: 'line_items', json: true },
  buyer: { column: 'buyer', json: true },
  context: { column: 'context', json: true },
  merchantCheckout: { column: 'merchant_checkout', json: true },
  continueUrl: { column: 'continue_url' },
};

const sqlValue = (v: unknown, json: boolean | undefined): unknown => {
  if (v === null || v === undefined) return null;
  if (json) return JSON.stringify(v);
  return typeof v === 'bigint' ? v.toString() : v;
};

/** A new session; its evidence chain starts empty (head = genesis, seq 0). */
export async function insertSession(db: Queryable, s: Omit<CheckoutSessionRecord, 'evidenceSeq' | 'paymentUpdatedAt'>): Promise<void> {
  await db.query(
    `INSERT INTO checkout_sessions (commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, mode, status, approval, approval_reason,
       merchant_checkout_id, currency, total, list_total, discount_codes, line_items, buyer, context, merchant_checkout, payment_stage,
       continue_url, intent_id, evidence_head, evidence_seq, created_at, updated_at, origin_contract_id, origin_workflow_run_id)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14::jsonb,$15::jsonb,$16::jsonb,$17::jsonb,$18,$19,$20,$21,0,$22,$22,$23,$24)`,
    [
      s.commerceSessionId, s.buyerAgentId, s.mandateId, s.merchantDomain, s.mode, s.status, s.approval, s.approvalReason,
      s.merchantCheckoutId, s.currency, s.total.toString(), s.listTotal.toString(), s.discountCodes, JSON.stringify(s.lineItems),
      sqlValue(s.buyer, true), sqlValue(s.context, true), JSON.stringify(s.merchantCheckout), s.paymentStage, s.continueUrl, s.intentId,
      s.evidenceHead, s.createdAt, originColumns(s.origin).contractId, originColumns(s.origin).workflowRunId,
    ],
  );
}

/** The session, or null; `forUpdate` locks the row (db must be a client in a transaction). */
export async function getSession(db: Queryable, sessionId: string, opts: { forUpdate?: boolean } = {}): Promise<CheckoutSessionRecord | null> {
  const { rows } = await db.query<SessionRow>(`SELECT * FROM checkout_sessions WHERE commerce_session_id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`, [sessionId]);
  return rows.length === 0 ? null : toRecord(rows[0]);
}

/** Sets the given fields and updated_at. */
export async function updateSession(db: Queryable, sessionId: string, change: SessionChange, now: Date): Promise<void> {
  const sets: string[] = [];
  const values: unknown[] = [sessionId];
  for (const [key, value] of Object.entries(change) as Array<[keyof SessionChange, unknown]>) {
    if (value === undefined) continue;
    const col = COLUMNS[key];
    values.push(sqlValue(value, col.json));
    sets.push(`${col.column} = $${values.length}${col.json ? '::jsonb' : ''}`);
  }
  values.push(now);
  sets.push(`updated_at = $${values.length}`);
  await db.query(`UPDATE checkout_sessions SET ${sets.join(', ')} WHERE commerce_session_id = $1`, values);
}

/** Whether the buyer has a settled purchase with the merchant. */
export async function hasPurchasedFrom(db: Queryable, buyerAgentId: string, merchantDomain: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM purchases WHERE buyer_agent_id = $1 AND merchant_domain = $2 LIMIT 1', [buyerAgentId, merchantDomain]);
  return rows.length > 0;
}

/** Settled purchases under the mandate since `since` (micro-units). */
export async function purchasedSince(db: Queryable, mandateId: string, since: Date): Promise<bigint> {
  const { rows } = await db.query<{ sum: string | null }>('SELECT SUM(amount)::text AS sum FROM purchases WHERE mandate_id = $1 AND completed_at >= $2', [mandateId, since]);
  return BigInt(rows[0]?.sum ?? '0');
}

/** The session's purchase, when it was settled. */
export async function getPurchase(db: Queryable, sessionId: string): Promise<PurchaseRecord | null> {
  const { rows } = await db.query<{
    deal_id: string; commerce_session_id: string; buyer_agent_id: string; merchant_domain: string; amount: string; currency: string;
    receipt_id: string; receipt: Record<string, unknown>; order_id: string | null; completed_at: Date;
    origin_contract_id: string | null; origin_workflow_run_id: string | null;
  }>('SELECT * FROM purchases WHERE commerce_session_id = $1', [sessionId]);
  if (rows.length === 0) return null;
  const r = rows[0];
  return {
    dealId: r.deal_id, commerceSessionId: r.commerce_session_id, buyerAgentId: r.buyer_agent_id, merchantDomain: r.merchant_domain,
    amount: BigInt(r.amount), currency: r.currency, receiptId: r.receipt_id, receipt: r.receipt, orderId: r.order_id, completedAt: r.completed_at,
    origin: originOf(r.origin_contract_id, r.origin_workflow_run_id),
  };
}
