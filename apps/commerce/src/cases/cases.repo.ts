import type { Queryable } from '@exchange/db';
import type { CaseEventRecord, CaseRecord, CaseStatus, PurchaseFacts, RefundState } from './case.model';

// purchase_cases, case_events and the purchases.refunded counter. Amounts are BIGINT micro-units
// (pg returns them as strings). An event's seq is MAX + 1 of its case: every writer holds the
// case's row lock (or has just inserted it), so two writers never pick the same seq.

const CASE_COLUMNS = `case_id, deal_id, buyer_agent_id, merchant_domain, type, reason, amount::text, currency, status, evidence_refs, refund_state,
  refund_receipt_id, refund_receipt, refunded_at, created_at, updated_at`;
const EVENT_COLUMNS = 'event_id, case_id, seq, type, from_status, to_status, actor, note, evidence_refs, amount::text, receipt_id, at';

/* eslint-disable @typescript-eslint/no-explicit-any -- pg rows are untyped */
function toCase(r: any): CaseRecord {
  return {
    caseId: r.case_id,
    dealId: r.deal_id,
    buyerAgentId: r.buyer_agent_id,
    merchantDomain: r.merchant_domain,
    type: r.type,
    reason: r.reason,
    amount: BigInt(r.amount),
    currency: r.currency,
    status: r.status,
    evidenceRefs: r.evidence_refs ?? [],
    refundState: r.refund_state,
    refundReceiptId: r.refund_receipt_id,
    refundReceipt: r.refund_receipt,
    refundedAt: r.refunded_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toEvent(r: any): CaseEventRecord {
  return {
    eventId: r.event_id,
    caseId: r.case_id,
    seq: r.seq,
    type: r.type,
    fromStatus: r.from_status,
    toStatus: r.to_status,
    actor: r.actor,
    note: r.note,
    evidenceRefs: r.evidence_refs ?? [],
    amount: r.amount === null ? null : BigInt(r.amount),
    receiptId: r.receipt_id,
    at: r.at,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The purchase a case is about; `forUpdate` locks its row (the refund cap) until the caller's transaction ends. */
export async function getPurchaseFacts(db: Queryable, dealId: string, opts: { forUpdate?: boolean } = {}): Promise<PurchaseFacts | null> {
  const { rows } = await db.query(
    `SELECT deal_id, buyer_agent_id, merchant_domain, amount::text, refunded::text, currency, receipt_id FROM purchases WHERE deal_id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [dealId],
  );
  if (rows.length === 0) return null;
  const r = rows[0];
  return { dealId: r.deal_id, buyerAgentId: r.buyer_agent_id, merchantDomain: r.merchant_domain, amount: BigInt(r.amount), refunded: BigInt(r.refunded), currency: r.currency, receiptId: r.receipt_id };
}

/** Adds an approved case's amount to the purchase (CHECK refunded <= amount is the last guard). */
export async function addRefunded(db: Queryable, dealId: string, amount: bigint): Promise<void> {
  await db.query('UPDATE purchases SET refunded = refunded + $2 WHERE deal_id = $1', [dealId, amount.toString()]);
}

export async function insertCase(db: Queryable, c: CaseRecord): Promise<void> {
  await db.query(
    `INSERT INTO purchase_cases (case_id, deal_id, buyer_agent_id, merchant_domain, type, reason, amount, currency, status, evidence_refs, refund_state,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [c.caseId, c.dealId, c.buyerAgentId, c.merchantDomain, c.type, c.reason, c.amount.toString(), c.currency, c.status, c.evidenceRefs, c.refundState, c.createdAt, c.updatedAt],
  );
}

export async function getCase(db: Queryable, caseId: string, opts: { forUpdate?: boolean } = {}): Promise<CaseRecord | null> {
  const { rows } = await db.query(`SELECT ${CASE_COLUMNS} FROM purchase_cases WHERE case_id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`, [caseId]);
  return rows.length === 0 ? null : toCase(rows[0]);
}

export async function appendEvidence(db: Queryable, caseId: string, refs: string[], now: Date): Promise<CaseRecord> {
  const { rows } = await db.query(
    `UPDATE purchase_cases SET evidence_refs = evidence_refs || $2::text[], updated_at = $3 WHERE case_id = $1 RETURNING ${CASE_COLUMNS}`,
    [caseId, refs, now],
  );
  return toCase(rows[0]);
}

export async function setStatus(db: Queryable, caseId: string, status: CaseStatus, refundState: RefundState, now: Date): Promise<CaseRecord> {
  const { rows } = await db.query(
    `UPDATE purchase_cases SET status = $2, refund_state = $3, updated_at = $4 WHERE case_id = $1 RETURNING ${CASE_COLUMNS}`,
    [caseId, status, refundState, now],
  );
  return toCase(rows[0]);
}

export async function markCredited(db: Queryable, caseId: string, receiptId: string, receipt: Record<string, unknown>, now: Date): Promise<CaseRecord> {
  const { rows } = await db.query(
    `UPDATE purchase_cases SET refund_state = 'credited', refund_receipt_id = $2, refund_receipt = $3::jsonb, refunded_at = $4, updated_at = $4
     WHERE case_id = $1 RETURNING ${CASE_COLUMNS}`,
    [caseId, receiptId, JSON.stringify(receipt), now],
  );
  return toCase(rows[0]);
}

export type NewCaseEvent = Omit<CaseEventRecord, 'seq'>;

export async function insertEvent(db: Queryable, e: NewCaseEvent): Promise<CaseEventRecord> {
  const { rows } = await db.query(
    `INSERT INTO case_events (event_id, case_id, seq, type, from_status, to_status, actor, note, evidence_refs, amount, receipt_id, at)
     VALUES ($1, $2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM case_events WHERE case_id = $2), $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING ${EVENT_COLUMNS}`,
    [e.eventId, e.caseId, e.type, e.fromStatus, e.toStatus, e.actor, e.note, e.evidenceRefs, e.amount?.toString() ?? null, e.receiptId, e.at],
  );
  return toEvent(rows[0]);
}

/** Oldest first, after `afterSeq`; `fetch` rows (the page size + 1: toPage's look-ahead). */
export async function listEvents(db: Queryable, caseId: string, afterSeq: number, fetch: number): Promise<CaseEventRecord[]> {
  const { rows } = await db.query(`SELECT ${EVENT_COLUMNS} FROM case_events WHERE case_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [caseId, afterSeq, fetch]);
  return rows.map(toEvent);
}

/** Every event of the deal's cases, in time order (ties: case, then seq) — the purchase timeline's part. */
export async function eventsOfDeal(db: Queryable, dealId: string): Promise<CaseEventRecord[]> {
  const { rows } = await db.query(
    `SELECT ${EVENT_COLUMNS} FROM case_events WHERE case_id IN (SELECT case_id FROM purchase_cases WHERE deal_id = $1) ORDER BY at, case_id, seq`,
    [dealId],
  );
  return rows.map(toEvent);
}

/**
 * Approved cases whose credit is still pending, last changed before `before`, oldest first —
 * except those wallet-ledger refused for good (a `refund_refused` event): retrying them with the
 * same key would only replay the refusal.
 */
export async function pendingRefunds(db: Queryable, before: Date, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ case_id: string }>(
    `SELECT c.case_id FROM purchase_cases c
      WHERE c.refund_state = 'pending' AND c.updated_at <= $1
        AND NOT EXISTS (SELECT 1 FROM case_events e WHERE e.case_id = c.case_id AND e.type = 'refund_refused')
      ORDER BY c.updated_at, c.case_id LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => r.case_id);
}
