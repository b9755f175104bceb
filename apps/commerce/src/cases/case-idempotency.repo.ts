import type { Queryable } from '@exchange/db';

// idempotency_records rows of CreateCase (scope = the buyer, rpc 'create_case'). The record is
// written in the transaction that inserts the case, so a key is either unused or names a
// committed case; a concurrent duplicate's INSERT waits on the first one's row lock.

export const CREATE_CASE_RPC = 'create_case';

export interface IdempotencyHit {
  requestHash: string;
  caseId: string;
}

function hit(row: { request_hash: string; response: { case_id?: unknown } | null }): IdempotencyHit {
  return { requestHash: row.request_hash, caseId: String(row.response?.case_id ?? '') };
}

/** The record of a key, if any (no lock). */
export async function findCreateCaseKey(db: Queryable, scope: string, key: string): Promise<IdempotencyHit | null> {
  const { rows } = await db.query('SELECT request_hash, response FROM idempotency_records WHERE scope = $1 AND rpc = $2 AND key = $3', [
    scope, CREATE_CASE_RPC, key,
  ]);
  return rows.length === 0 ? null : hit(rows[0]);
}

/**
 * Claims the key for `caseId` inside the caller's transaction: null when the claim is ours,
 * else the record a concurrent request committed first.
 */
export async function claimCreateCaseKey(
  db: Queryable,
  scope: string,
  key: string,
  requestHash: string,
  caseId: string,
  now: Date,
): Promise<IdempotencyHit | null> {
  const { rows } = await db.query(
    `INSERT INTO idempotency_records (scope, rpc, key, request_hash, response, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
     ON CONFLICT (scope, rpc, key) DO NOTHING RETURNING 1`,
    [scope, CREATE_CASE_RPC, key, requestHash, JSON.stringify({ case_id: caseId }), now],
  );
  if (rows.length > 0) return null;
  return findCreateCaseKey(db, scope, key);
}
