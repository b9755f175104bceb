import type { Queryable } from '@exchange/db';

// idempotency_records rows of CreateIntent (scope = the intent's agent, rpc 'create_intent'). The
// record is written in the transaction that inserts the intent, so a key is either unused or names
// a committed intent; a concurrent duplicate's INSERT waits on the first one's row lock.

export const CREATE_INTENT_RPC = 'create_intent';

export interface IntentKeyHit {
  requestHash: string;
  intentId: string;
}

export async function findCreateIntentKey(db: Queryable, scope: string, key: string): Promise<IntentKeyHit | null> {
  const { rows } = await db.query<{ request_hash: string; response: { intent_id?: unknown } | null }>(
    'SELECT request_hash, response FROM idempotency_records WHERE scope = $1 AND rpc = $2 AND key = $3',
    [scope, CREATE_INTENT_RPC, key],
  );
  return rows.length === 0 ? null : { requestHash: rows[0].request_hash, intentId: String(rows[0].response?.intent_id ?? '') };
}

/** Claims the key for `intentId` in the caller's transaction: null when ours, else the record a concurrent request committed first. */
export async function claimCreateIntentKey(db: Queryable, scope: string, key: string, requestHash: string, intentId: string, now: Date): Promise<IntentKeyHit | null> {
  const { rows } = await db.query(
    `INSERT INTO idempotency_records (scope, rpc, key, request_hash, response, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
     ON CONFLICT (scope, rpc, key) DO NOTHING RETURNING 1`,
    [scope, CREATE_INTENT_RPC, key, requestHash, JSON.stringify({ intent_id: intentId }), now],
  );
  return rows.length > 0 ? null : findCreateIntentKey(db, scope, key);
}
