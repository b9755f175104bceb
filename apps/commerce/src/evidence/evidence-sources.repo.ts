import type pg from 'pg';
import { withTransaction, type Queryable } from '@exchange/db';
import type { SessionHead } from './evidence-access';
import type { CasefileSources, StoredRow } from './casefile-sources.model';
import { listEvidence } from './evidence.repo';

// Reads for the evidence area: the session (written by checkout), its mandate, purchase and
// chain. A casefile or a page is read in one snapshot so the chain and the head agree even while
// checkout appends.

/** Runs `fn` in a REPEATABLE READ, READ ONLY transaction: every query sees one snapshot. */
export function inSnapshot<T>(pool: pg.Pool, fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, async (db) => {
    await db.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    return fn(db);
  });
}

export async function findSessionHead(db: Queryable, sessionId: string): Promise<SessionHead | null> {
  const { rows } = await db.query<{ buyer_agent_id: string; mandate_id: string; merchant_domain: string; evidence_seq: number; evidence_head: string }>(
    'SELECT buyer_agent_id, mandate_id, merchant_domain, evidence_seq, evidence_head FROM checkout_sessions WHERE commerce_session_id = $1',
    [sessionId],
  );
  if (rows.length === 0) return null;
  const r = rows[0];
  return { commerceSessionId: sessionId, buyerAgentId: r.buyer_agent_id, mandateId: r.mandate_id, merchantDomain: r.merchant_domain, evidenceSeq: r.evidence_seq, evidenceHead: r.evidence_head };
}

// The public columns of a session: reserved_amount and payment_updated_at are the saga's own
// bookkeeping, not part of the record.
const SESSION_COLUMNS = `commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, mode, status, approval, approval_reason,
  approved_total::text, approver_id, approval_signature, merchant_checkout_id, currency, total::text, list_total::text,
  discount_codes, line_items, buyer, context, merchant_checkout, payment_stage, hold_id, deal_id, receipt_id, order_id,
  continue_url, failure_reason, intent_id, evidence_head, evidence_seq, created_at, updated_at`;

const MANDATE_COLUMNS = `mandate_id, signer_agent_id, agent_id, scope_merchants, scope_categories, scope_skus, per_transaction::text,
  total_limit::text, currency, expires_at, signature, signed_payload, status, spent::text, reserved::text, autonomy_mode,
  step_up_amount::text, step_up_currency, approval_for_new_merchants, daily_limit::text, created_at, updated_at`;

const PURCHASE_COLUMNS = `deal_id, commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, amount::text, list_amount::text, currency,
  receipt_id, order_id, completed_at`;

async function oneRow(db: Queryable, sql: string, id: string): Promise<StoredRow | null> {
  const { rows } = await db.query<StoredRow>(sql, [id]);
  return rows[0] ?? null;
}

/** Everything the casefile of `session` holds; call inside inSnapshot. */
export async function loadCasefileSources(db: Queryable, session: SessionHead): Promise<CasefileSources> {
  const id = session.commerceSessionId;
  const sessionRow = await oneRow(db, `SELECT ${SESSION_COLUMNS} FROM checkout_sessions WHERE commerce_session_id = $1`, id);
  const mandateRow = await oneRow(db, `SELECT ${MANDATE_COLUMNS} FROM mandates WHERE mandate_id = $1`, session.mandateId);
  // One read of the purchase: the receipt is split off, the rest is the purchase record.
  const purchase = await oneRow(db, `SELECT ${PURCHASE_COLUMNS}, receipt FROM purchases WHERE commerce_session_id = $1`, id);
  let purchaseRow: StoredRow | null = null;
  let receipt: CasefileSources['receipt'] = null;
  if (purchase) {
    const { receipt: receiptContent, ...rest } = purchase;
    purchaseRow = rest;
    receipt = { receiptId: String(purchase['receipt_id']), content: receiptContent as Record<string, unknown> };
  }
  const evidence = await listEvidence(db, id);
  return { session, sessionRow: sessionRow ?? {}, mandateRow, purchaseRow, receipt, evidence };
}
