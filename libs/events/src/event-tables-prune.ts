import type pg from 'pg';

// Published outbox rows are kept for a while (a reader debugging a service sees what it sent),
// then deleted: the bus has them, and nothing reads them again. A consumer's processed-event
// records are needed only while the bus may deliver those events again (EventBus.historyMs; a
// copy the outbox relay republishes much later is a new message, hence the caller's margin).
// Without this every event a service ever emitted or consumed stays in its database, heap and
// indexes growing for ever.

export interface PruneOptions {
  /** Rows at least this long past their moment (by the database's clock) are deleted. */
  olderThanMs: number;
  /** Rows per DELETE (default 1,000): short statements, short locks. */
  batchSize?: number;
  /** At most this many DELETEs per call (default 50), so a round stays short; the next round goes on. */
  maxBatches?: number;
}

// An index on the row's moment serves the range; SKIP LOCKED lets replicas prune side by side
// without waiting on each other. `= ANY(ARRAY(…))` rather than `IN (…)`: the rows are found first
// and deleted by key under any plan, where `IN` under a generic plan (a pooler preparing
// statements) becomes a hash join over the whole table. processed_events has a two-column key,
// so its rows are deleted by ctid (a TID scan; nothing updates those rows, so the ctid is stable).
const PRUNE_OUTBOX = `DELETE FROM outbox_events WHERE id = ANY(ARRAY(
    SELECT id FROM outbox_events
     WHERE published_at < now() - make_interval(secs => $1::double precision / 1000)
     ORDER BY published_at
     LIMIT $2
     FOR UPDATE SKIP LOCKED))`;

const PRUNE_PROCESSED = `DELETE FROM processed_events WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM processed_events
     WHERE processed_at < now() - make_interval(secs => $1::double precision / 1000)
     ORDER BY processed_at
     LIMIT $2
     FOR UPDATE SKIP LOCKED))`;

/** Deletes outbox rows published more than `olderThanMs` ago; the number deleted. Unpublished rows are never touched. */
export function pruneOutbox(pool: pg.Pool, opts: PruneOptions): Promise<number> {
  return deleteInBatches(pool, PRUNE_OUTBOX, opts);
}

/**
 * Deletes processed-event records older than `olderThanMs`; the number deleted. Safe only past
 * the bus's history (EventBus.historyMs): an event the bus can still deliver must find its record.
 */
export function pruneProcessedEvents(pool: pg.Pool, opts: PruneOptions): Promise<number> {
  return deleteInBatches(pool, PRUNE_PROCESSED, opts);
}

async function deleteInBatches(pool: pg.Pool, sql: string, opts: PruneOptions): Promise<number> {
  const batchSize = opts.batchSize ?? 1_000;
  const maxBatches = opts.maxBatches ?? 50;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const { rowCount } = await pool.query(sql, [opts.olderThanMs, batchSize]);
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < batchSize) break;
  }
  return deleted;
}
