import type pg from 'pg';

// Published outbox rows are kept for a while (a reader debugging a service sees what it sent),
// then deleted: the bus has them, and nothing reads them again. Without this every event a
// service ever emitted stays in its database, heap and indexes growing for ever.

export interface OutboxPruneOptions {
  /** Rows published at least this long ago (by the database's clock) are deleted. */
  olderThanMs: number;
  /** Rows per DELETE (default 1,000): short statements, short locks. */
  batchSize?: number;
  /** At most this many DELETEs per call (default 50), so a round stays short; the next round goes on. */
  maxBatches?: number;
}

// The relay index (published_at, created_at, id) serves the range; SKIP LOCKED lets replicas
// prune side by side without waiting on each other. `= ANY(ARRAY(…))` rather than `IN (…)`: the
// ids are found first and deleted by primary key under any plan, where `IN` under a generic plan
// (a pooler preparing statements) becomes a hash join over the whole table.
const PRUNE = `DELETE FROM outbox_events WHERE id = ANY(ARRAY(
    SELECT id FROM outbox_events
     WHERE published_at < now() - make_interval(secs => $1::double precision / 1000)
     ORDER BY published_at
     LIMIT $2
     FOR UPDATE SKIP LOCKED))`;

/** Deletes outbox rows published more than `olderThanMs` ago; the number deleted. Unpublished rows are never touched. */
export async function pruneOutbox(pool: pg.Pool, opts: OutboxPruneOptions): Promise<number> {
  const batchSize = opts.batchSize ?? 1_000;
  const maxBatches = opts.maxBatches ?? 50;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const { rowCount } = await pool.query(PRUNE, [opts.olderThanMs, batchSize]);
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < batchSize) break;
  }
  return deleted;
}
