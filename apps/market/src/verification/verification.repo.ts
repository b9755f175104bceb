import { encodeCursor } from '@exchange/platform';
import type { VerificationReport } from '../domain/model';
import { key, type Page, type PageQuery, type Queryable, type Row } from '../data/repo-kit';

// Verification reports (verifiers and their listings: src/listings/listings.repo.ts).

const toReport = (r: Row): VerificationReport => ({
  reportId: r.id,
  contractId: r.contract_id,
  resultId: r.result_id,
  verifierId: r.verifier_id,
  verdict: r.verdict,
  score: r.score,
  checks: r.checks,
  signature: r.signature,
  resultCreatedAt: r.result_created_at,
  createdAt: r.created_at,
});

export async function insertReport(db: Queryable, r: VerificationReport): Promise<void> {
  await db.query(
    `INSERT INTO verification_reports (id, contract_id, result_id, verifier_id, verdict, score, checks, signature, result_created_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10)`,
    [r.reportId, r.contractId, r.resultId, r.verifierId, r.verdict, r.score, JSON.stringify(r.checks), r.signature, r.resultCreatedAt, r.createdAt],
  );
}

/** A contract's reports oldest first, keyset-paged on (created_at, id) ascending. */
export async function listReports(db: Queryable, contractId: string, q: PageQuery): Promise<Page<VerificationReport>> {
  const values: unknown[] = [contractId];
  let after = '';
  if (q.after) {
    values.push(q.after.createdAt, q.after.id);
    after = ' AND (created_at, id) > ($2, $3)';
  }
  values.push(q.limit + 1);
  const { rows } = await db.query(
    `SELECT * FROM verification_reports WHERE contract_id = $1${after} ORDER BY created_at, id LIMIT $${values.length}`,
    values,
  );
  if (rows.length <= q.limit) return { data: rows.map(toReport), nextCursor: null };
  const kept = rows.slice(0, q.limit);
  return { data: kept.map(toReport), nextCursor: encodeCursor(key(kept[kept.length - 1])) };
}

export async function latestReport(db: Queryable, contractId: string): Promise<VerificationReport | null> {
  const { rows } = await db.query('SELECT * FROM verification_reports WHERE contract_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1', [contractId]);
  return rows[0] ? toReport(rows[0]) : null;
}

/** Verdict and latency (ms) of every report created at or after `since` (all when null). */
export async function reportOutcomes(db: Queryable, since: Date | null): Promise<Array<{ verdict: 'pass' | 'fail'; latencyMs: number }>> {
  const { rows } = await db.query(
    `SELECT verdict, (EXTRACT(EPOCH FROM (created_at - result_created_at)) * 1000)::bigint AS latency_ms
       FROM verification_reports WHERE $1::timestamptz IS NULL OR created_at >= $1`,
    [since],
  );
  return rows.map((r) => ({ verdict: r.verdict, latencyMs: Number(r.latency_ms) }));
}
