import { encodeCursor, newId } from '@exchange/platform';
import type { Queryable } from '@exchange/db';
import type { PageQuery, Page } from '../data/repo-kit';
import type { ResaleReview, ResaleReviewStatus } from './resale';

// SQL of resale_reviews, the lineage walk, buyer alias updates and the governance rows of
// integrity_audit (the audit table's reader belongs to the integrity area).

/* eslint-disable @typescript-eslint/no-explicit-any */
type Row = Record<string, any>;

const toReview = (r: Row): ResaleReview => ({
  decisionRef: r.id,
  contractId: r.contract_id,
  resaleOf: r.resale_of,
  rootContractId: r.root_contract_id,
  depth: r.depth,
  lineage: r.lineage ?? [],
  status: r.status,
  decidedBy: r.decided_by,
  reason: r.reason,
  decidedAt: r.decided_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertReview(db: Queryable, r: ResaleReview): Promise<void> {
  await db.query(
    `INSERT INTO resale_reviews (id, contract_id, resale_of, root_contract_id, depth, lineage, status, decided_by, reason, decided_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [r.decisionRef, r.contractId, r.resaleOf, r.rootContractId, r.depth, r.lineage, r.status, r.decidedBy, r.reason, r.decidedAt, r.createdAt, r.updatedAt],
  );
}

export async function saveReview(db: Queryable, r: ResaleReview): Promise<void> {
  await db.query('UPDATE resale_reviews SET status = $2, decided_by = $3, reason = $4, decided_at = $5, updated_at = $6 WHERE id = $1', [
    r.decisionRef,
    r.status,
    r.decidedBy,
    r.reason,
    r.decidedAt,
    r.updatedAt,
  ]);
}

export async function getReview(db: Queryable, decisionRef: string): Promise<ResaleReview | null> {
  const { rows } = await db.query('SELECT * FROM resale_reviews WHERE id = $1', [decisionRef]);
  return rows[0] ? toReview(rows[0]) : null;
}

export async function reviewOfContract(db: Queryable, contractId: string): Promise<ResaleReview | null> {
  const { rows } = await db.query('SELECT * FROM resale_reviews WHERE contract_id = $1', [contractId]);
  return rows[0] ? toReview(rows[0]) : null;
}

/** Reviews of many contracts at once (list reads attach them). */
export async function reviewsOfContracts(db: Queryable, contractIds: readonly string[]): Promise<Map<string, ResaleReview>> {
  if (contractIds.length === 0) return new Map();
  const { rows } = await db.query('SELECT * FROM resale_reviews WHERE contract_id = ANY($1)', [contractIds]);
  return new Map(rows.map((r: Row) => [r.contract_id as string, toReview(r)]));
}

/** Newest first, keyset on (created_at, id). */
export async function listReviews(db: Queryable, filters: { status?: ResaleReviewStatus; contractId?: string }, q: PageQuery): Promise<Page<ResaleReview>> {
  const values: unknown[] = [];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const where: string[] = [];
  if (filters.status !== undefined) where.push(`status = ${param(filters.status)}`);
  if (filters.contractId !== undefined) where.push(`contract_id = ${param(filters.contractId)}`);
  if (q.after) where.push(`(created_at, id) < (${param(q.after.createdAt)}, ${param(q.after.id)})`);
  const sql = `SELECT * FROM resale_reviews${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ${param(q.limit + 1)}`;
  const { rows } = await db.query(sql, values);
  if (rows.length <= q.limit) return { data: rows.map(toReview), nextCursor: null };
  const kept = rows.slice(0, q.limit);
  const last = kept[kept.length - 1] as Row;
  return { data: kept.map(toReview), nextCursor: encodeCursor({ createdAt: last.created_at, id: last.id }) };
}

/**
 * The chain ending with `contractId`, root first: each contract and its buyer, walking resale_of
 * upwards. At most `limit` contracts (a chain longer than that is refused anyway).
 */
export async function chainTo(db: Queryable, contractId: string, limit: number): Promise<Array<{ contractId: string; buyerId: string }>> {
  const { rows } = await db.query(
    `WITH RECURSIVE chain (id, resale_of, buyer_id, n) AS (
       SELECT id, resale_of, buyer_id, 1 FROM contracts WHERE id = $1
       UNION ALL
       SELECT c.id, c.resale_of, c.buyer_id, chain.n + 1 FROM contracts c JOIN chain ON c.id = chain.resale_of WHERE chain.n < $2
     )
     SELECT id, buyer_id FROM chain ORDER BY n DESC`,
    [contractId, limit],
  );
  return rows.map((r: Row) => ({ contractId: r.id, buyerId: r.buyer_id }));
}

/** The buyers of the given contracts (the upstream buyers of a lineage). */
export async function buyersOf(db: Queryable, contractIds: readonly string[]): Promise<string[]> {
  if (contractIds.length === 0) return [];
  const { rows } = await db.query('SELECT DISTINCT buyer_id FROM contracts WHERE id = ANY($1)', [contractIds]);
  return rows.map((r: Row) => r.buyer_id as string);
}

/** An operator alias update: privacy flag, the alias shown and its generation. */
export async function setBuyerPrivacy(
  db: Queryable,
  contractId: string,
  v: { buyerPrivate: boolean; buyerAlias: string | null; generation: number; updatedAt: Date },
): Promise<void> {
  await db.query('UPDATE contracts SET buyer_private = $2, buyer_alias = $3, buyer_alias_generation = $4, updated_at = $5 WHERE id = $1', [
    contractId,
    v.buyerPrivate,
    v.buyerAlias,
    v.generation,
    v.updatedAt,
  ]);
}

export type GovernanceAuditAction = 'buyer_alias_updated' | 'resale_review_decided';

export interface GovernanceAudit {
  action: GovernanceAuditAction;
  /** The operator actor ("operator:<name>"). */
  operator: string;
  reason: string;
  /** The contract or decision_ref the decision is about. */
  subject: string;
  details: Record<string, unknown>;
  createdAt: Date;
}

/** One integrity_audit row (id aud_<uuidv7>), written in the transaction of the decision. */
export async function insertAudit(db: Queryable, a: GovernanceAudit): Promise<string> {
  const id = newId('aud');
  await db.query('INSERT INTO integrity_audit (id, action, operator, reason, subject, details, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    id,
    a.action,
    a.operator,
    a.reason,
    a.subject,
    JSON.stringify(a.details),
    a.createdAt,
  ]);
  return id;
}
