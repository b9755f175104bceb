import type { Dispute } from '../domain/model';
import { key, page, type Page, type PageQuery, type Queryable, type Row } from '../data/repo-kit';

// The disputes table.

const toDispute = (r: Row): Dispute => ({
  disputeId: r.id,
  contractId: r.contract_id,
  openedBy: r.opened_by,
  reason: r.reason,
  evidenceRefs: r.evidence_refs,
  status: r.status,
  outcome: r.outcome,
  sellerShareBps: r.seller_share_bps,
  rationale: r.rationale,
  resolvedBy: r.resolved_by,
  resolvedAt: r.resolved_at,
  receiptId: r.receipt_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertDispute(db: Queryable, d: Dispute): Promise<void> {
  await db.query(
    `INSERT INTO disputes (id, contract_id, opened_by, reason, evidence_refs, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [d.disputeId, d.contractId, d.openedBy, d.reason, d.evidenceRefs, d.status, d.createdAt, d.updatedAt],
  );
}

export async function getDispute(db: Queryable, id: string): Promise<Dispute | null> {
  const { rows } = await db.query('SELECT * FROM disputes WHERE id = $1', [id]);
  return rows[0] ? toDispute(rows[0]) : null;
}

export async function saveDispute(db: Queryable, d: Dispute): Promise<void> {
  await db.query(
    `UPDATE disputes SET status = $2, outcome = $3, seller_share_bps = $4, rationale = $5, resolved_by = $6, resolved_at = $7,
       receipt_id = $8, updated_at = $9 WHERE id = $1`,
    [d.disputeId, d.status, d.outcome, d.sellerShareBps, d.rationale, d.resolvedBy, d.resolvedAt, d.receiptId, d.updatedAt],
  );
}

export function listDisputes(
  db: Queryable,
  contractId: string,
  filters: { openedBy?: string; status?: Dispute['status'] },
  q: PageQuery,
): Promise<Page<Dispute>> {
  return page(db, 'disputes', { contract_id: contractId, opened_by: filters.openedBy, status: filters.status }, q, toDispute, key);
}
