import type { Queryable } from '@exchange/db';

// idempotency_records rows of CreateMandate (scope = the signer, rpc 'create_mandate'). The record
// is written in the transaction that inserts the mandate, so a key is either unused or names a
// committed mandate; a concurrent duplicate's INSERT waits on the first one's row lock.

export const CREATE_MANDATE_RPC = 'create_mandate';

export interface IdempotencyHit {
  requestHash: string;
  mandateId: string;
}

function hit(row: { request_hash: string; response: { mandate_id?: unknown } | null }): IdempotencyHit {
  return { requestHash: row.request_hash, mandateId: String(row.response?.mandate_id ?? '') };
}

/** The record of a key, if any (no lock). */
export async function findCreateMandateKey(db: Queryable, scope: string, key: string): Promise<IdempotencyHit | null> {
  const { rows } = await db.query('SELECT request_hash, response FROM idempotency_records WHERE scope = $1 AND rpc = $2 AND key = $3', [
    scope, CREATE_MANDATE_RPC, key,
  ]);
  return rows.length === 0 ? null : hit(rows[0]);
}

/**
 * Claims the key for `mandateId` inside the caller's transaction: null when the claim is ours,
 * else the record a concurrent request committed first.
 */
export async function claimCreateMandateKey(
  db: Queryable,
  scope: string,
  key: string,
  requestHash: string,
  mandateId: string,
  now: Date,
): Promise<IdempotencyHit | null> {
  const { rows } = await db.query(
    `INSERT INTO idempotency_records (scope, rpc, key, request_hash, response, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
     ON CONFLICT (scope, rpc, key) DO NOTHING RETURNING 1`,
    [scope, CREATE_MANDATE_RPC, key, requestHash, JSON.stringify({ mandate_id: mandateId }), now],
  );
  if (rows.length > 0) return null;
  return findCreateMandateKey(db, scope, key);
}
