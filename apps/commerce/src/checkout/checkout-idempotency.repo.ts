import type { Queryable } from '@exchange/db';

// idempotency_records for the checkout RPCs. A record is written in the same transaction as the
// change it answers for (so a failed request leaves none and may be retried with the same key);
// its response is what a replay needs to answer again (the session id and, for discounts, the
// outcome).

export interface IdempotencyHit {
  requestHash: string;
  response: Record<string, unknown>;
}

export async function findIdempotency(db: Queryable, scope: string, rpc: string, key: string): Promise<IdempotencyHit | null> {
  const { rows } = await db.query<{ request_hash: string; response: Record<string, unknown> | null }>(
    'SELECT request_hash, response FROM idempotency_records WHERE scope = $1 AND rpc = $2 AND key = $3',
    [scope, rpc, key],
  );
  return rows.length === 0 ? null : { requestHash: rows[0].request_hash, response: rows[0].response ?? {} };
}

/** Inserts the record; a concurrent twin's commit makes this fail with a unique violation (the caller replays it). */
export async function insertIdempotency(db: Queryable, rec: { scope: string; rpc: string; key: string; requestHash: string; response: Record<string, unknown>; now: Date }): Promise<void> {
  await db.query('INSERT INTO idempotency_records (scope, rpc, key, request_hash, response, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6)', [
    rec.scope, rec.rpc, rec.key, rec.requestHash, JSON.stringify(rec.response), rec.now,
  ]);
}
