import type { Queryable } from './repo-kit';

// The idempotency_records table (src/grpc/idempotency.ts).

export interface IdempotencyRow {
  requestHash: string;
  response: unknown;
  createdAt: Date;
}

/**
 * Claims (scope, rpc, key) inside the caller's open transaction: the uncommitted row is the
 * claim, so a concurrent duplicate's INSERT waits for it (and a claim whose process died goes
 * with its connection). Returns null when the claim is ours, else the committed record.
 */
export async function claimIdempotency(
  db: Queryable,
  scope: string,
  rpc: string,
  key: string,
  requestHash: string,
  now: Date,
  ttlDays: number,
): Promise<IdempotencyRow | null> {
  // An expired record is taken over as if absent.
  const { rows } = await db.query(
    `INSERT INTO idempotency_records (scope, rpc, key, request_hash, response, created_at) VALUES ($1, $2, $3, $4, NULL, $5)
     ON CONFLICT (scope, rpc, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, response = NULL, created_at = EXCLUDED.created_at
       WHERE idempotency_records.created_at < $6
     RETURNING 1`,
    [scope, rpc, key, requestHash, now, new Date(now.getTime() - ttlDays * 86_400_000)],
  );
  if (rows.length > 0) return null;
  const existing = await db.query('SELECT request_hash, response, created_at FROM idempotency_records WHERE scope = $1 AND rpc = $2 AND key = $3', [
    scope, rpc, key,
  ]);
  const r = existing.rows[0];
  return { requestHash: r.request_hash, response: r.response, createdAt: r.created_at };
}

export async function completeIdempotency(db: Queryable, scope: string, rpc: string, key: string, response: unknown): Promise<void> {
  await db.query('UPDATE idempotency_records SET response = $4::jsonb WHERE scope = $1 AND rpc = $2 AND key = $3', [
    scope, rpc, key, JSON.stringify(response),
  ]);
}
