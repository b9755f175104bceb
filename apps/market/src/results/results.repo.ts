import type { Result } from '../domain/model';
import { key, page, type Page, type PageQuery, type Queryable, type Row } from '../data/repo-kit';

// The results table.

const toResult = (r: Row): Result => ({
  resultId: r.id,
  contractId: r.contract_id,
  sellerId: r.seller_id,
  summary: r.summary,
  artifactRefs: r.artifact_refs,
  payloadJson: r.payload_json,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertResult(db: Queryable, r: Result): Promise<void> {
  await db.query(
    `INSERT INTO results (id, contract_id, seller_id, summary, artifact_refs, payload_json, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [r.resultId, r.contractId, r.sellerId, r.summary, r.artifactRefs, r.payloadJson, r.status, r.createdAt, r.updatedAt],
  );
}

export async function getResult(db: Queryable, id: string): Promise<Result | null> {
  const { rows } = await db.query('SELECT * FROM results WHERE id = $1', [id]);
  return rows[0] ? toResult(rows[0]) : null;
}

export async function latestResult(db: Queryable, contractId: string): Promise<Result | null> {
  const { rows } = await db.query('SELECT * FROM results WHERE contract_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1', [contractId]);
  return rows[0] ? toResult(rows[0]) : null;
}

export async function setResultStatus(db: Queryable, id: string, status: Result['status'], now: Date): Promise<void> {
  await db.query('UPDATE results SET status = $2, updated_at = $3 WHERE id = $1', [id, status, now]);
}

export function listResults(
  db: Queryable,
  contractId: string,
  filters: { sellerId?: string; status?: Result['status'] },
  q: PageQuery,
): Promise<Page<Result>> {
  return page(db, 'results', { contract_id: contractId, seller_id: filters.sellerId, status: filters.status }, q, toResult, key);
}
