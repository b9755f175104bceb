import type pg from 'pg';

/** Drops up to 1000 idempotency keys past their 30 days (the hold sweeper does it each round). */
export async function dropExpiredIdempotencyKeys(pool: pg.Pool, now: Date): Promise<void> {
  await pool.query(`DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at < $1 LIMIT 1000)`, [now]);
}
