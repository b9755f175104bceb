import path from 'node:path';
import pg from 'pg';
import { runMigrations } from '@exchange/db';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';

// A migrated telemetry database for the ingest tests, and polling for what the consumer records.

export interface StoreDb {
  db: TestDatabase;
  pool: pg.Pool;
  close(): Promise<void>;
}

export async function migratedStore(name: string): Promise<StoreDb> {
  const db = await createTestDatabase(name);
  await runMigrations({ connectionString: db.url, migrationsDir: path.join(__dirname, '..', 'prisma', 'migrations'), logger: testLogger });
  const pool = new pg.Pool({ connectionString: db.url, max: 3 });
  return { db, pool, close: async () => (await pool.end(), await db.drop()) };
}

/** Polls `probe` until it returns a non-null value (or fails after `timeoutMs`). */
export async function until<T>(probe: () => Promise<T | null | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Event ids recorded among `ids`, with how many rows each has (always 1 when nothing doubled). */
export async function recorded(pool: pg.Pool, ids: string[]): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ event_id: string; n: number }>('SELECT event_id, count(*)::int AS n FROM events WHERE event_id = ANY($1) GROUP BY event_id', [ids]);
  return new Map(rows.map((r) => [r.event_id, r.n]));
}

/** Resolves once every id in `ids` is recorded; returns the rows per id. */
export function allRecorded(pool: pg.Pool, ids: string[], timeoutMs?: number): Promise<Map<string, number>> {
  return until(async () => {
    const seen = await recorded(pool, ids);
    return seen.size === ids.length ? seen : null;
  }, timeoutMs);
}
