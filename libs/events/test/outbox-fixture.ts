import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@exchange/testing';
import { enqueueEvent, newEvent, OUTBOX_SQL, pgSqlExecutor, type EventEnvelope } from '../src';

/** A fresh database with the outbox tables and a side-effect table consumers write to. */
export async function createOutboxDatabase(name: string): Promise<{ db: TestDatabase; pool: pg.Pool; close(): Promise<void> }> {
  const db = await createTestDatabase(name);
  const pool = new pg.Pool({ connectionString: db.url, max: 6 });
  await pool.query(OUTBOX_SQL);
  await pool.query('CREATE TABLE side_effects (event_id TEXT NOT NULL, consumer TEXT NOT NULL)');
  return {
    db,
    pool,
    close: async () => {
      await pool.end();
      await db.drop();
    },
  };
}

/** Commits (or rolls back) a transaction that enqueues `event`, as a service's state change would. */
export async function enqueueInTransaction(pool: pg.Pool, event: EventEnvelope, outcome: 'commit' | 'rollback' = 'commit'): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await enqueueEvent(pgSqlExecutor(client), event);
    await client.query(outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
  } finally {
    client.release();
  }
}

export function testEvent(prefix: string, verb: string, data: unknown = {}): EventEnvelope {
  return newEvent({ type: `${prefix}.test.thing.${verb}`, source: 'test', subjectId: 'thing_1', data });
}

export async function sideEffects(pool: pg.Pool, consumer: string): Promise<string[]> {
  const { rows } = await pool.query<{ event_id: string }>('SELECT event_id FROM side_effects WHERE consumer = $1 ORDER BY event_id', [consumer]);
  return rows.map((row) => row.event_id);
}

export async function unpublishedCount(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM outbox_events WHERE published_at IS NULL');
  return Number(rows[0].n);
}
