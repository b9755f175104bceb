import { pruneOutbox, pruneProcessedEvents } from '../src';
import { createOutboxDatabase, enqueueInTransaction, testEvent } from './outbox-fixture';

// Real PostgreSQL: which rows a prune deletes is decided by the database's clock and the relay index.
describe('pruneOutbox (real PostgreSQL)', () => {
  let fixture: Awaited<ReturnType<typeof createOutboxDatabase>>;

  beforeAll(async () => {
    fixture = await createOutboxDatabase('events_outbox_prune');
  });
  afterAll(async () => fixture?.close());
  beforeEach(async () => fixture.pool.query('DELETE FROM outbox_events'));

  /** Enqueues an event and marks it published `ageMs` ago (null: left unpublished). */
  async function row(label: string, ageMs: number | null): Promise<string> {
    const event = testEvent('prune', label);
    await enqueueInTransaction(fixture.pool, event);
    if (ageMs !== null) {
      await fixture.pool.query(`UPDATE outbox_events SET published_at = now() - make_interval(secs => $2::double precision / 1000) WHERE id = $1`, [event.id, ageMs]);
    }
    return event.id;
  }

  const ids = async (): Promise<string[]> => (await fixture.pool.query<{ id: string }>('SELECT id FROM outbox_events ORDER BY id')).rows.map((r) => r.id);

  it('deletes only rows published longer ago than the retention, never an unpublished one', async () => {
    const hour = 3_600_000;
    await row('old', 25 * hour);
    await row('older', 90 * 24 * hour);
    const recent = await row('recent', 23 * hour);
    const pendingOld = await row('pending', null);
    await fixture.pool.query(`UPDATE outbox_events SET created_at = now() - interval '30 days' WHERE id = $1`, [pendingOld]);

    expect(await pruneOutbox(fixture.pool, { olderThanMs: 24 * hour })).toBe(2);
    expect(await ids()).toEqual([recent, pendingOld].sort());
    expect(await pruneOutbox(fixture.pool, { olderThanMs: 24 * hour })).toBe(0);
  });

  it('sends one statement when nothing is due, and deletes the oldest first when a call is cut short', async () => {
    await row('young', 1_000);
    const query = jest.spyOn(fixture.pool, 'query');
    try {
      expect(await pruneOutbox(fixture.pool, { olderThanMs: 60_000, batchSize: 2, maxBatches: 5 })).toBe(0);
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
    await fixture.pool.query('DELETE FROM outbox_events');
    const byAge = [];
    for (const minutes of [3, 9, 5, 7, 2]) byAge.push({ minutes, id: await row(`m${minutes}`, minutes * 60_000) });
    expect(await pruneOutbox(fixture.pool, { olderThanMs: 60_000, batchSize: 2, maxBatches: 1 })).toBe(2);
    // The 9- and 7-minute-old rows went; the three younger ones stay.
    expect(await ids()).toEqual(byAge.filter((r) => r.minutes < 7).map((r) => r.id).sort());
  });

  it('works in batches and stops after maxBatches, leaving the rest for the next call', async () => {
    for (let i = 0; i < 7; i++) await row(`batch${i}`, 10_000);
    expect(await pruneOutbox(fixture.pool, { olderThanMs: 1_000, batchSize: 2, maxBatches: 2 })).toBe(4);
    expect(await ids()).toHaveLength(3);
    expect(await pruneOutbox(fixture.pool, { olderThanMs: 1_000, batchSize: 2, maxBatches: 5 })).toBe(3);
    expect(await ids()).toHaveLength(0);
  });

  it('skips rows another transaction holds instead of waiting for it', async () => {
    const held = await row('held', 10_000);
    await row('free', 10_000);
    const client = await fixture.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT id FROM outbox_events WHERE id = $1 FOR UPDATE', [held]);
      expect(await pruneOutbox(fixture.pool, { olderThanMs: 1_000 })).toBe(1);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await ids()).toEqual([held]);
  });
});

describe('pruneProcessedEvents (real PostgreSQL)', () => {
  let fixture: Awaited<ReturnType<typeof createOutboxDatabase>>;

  beforeAll(async () => {
    fixture = await createOutboxDatabase('events_processed_prune');
  });
  afterAll(async () => fixture?.close());
  beforeEach(async () => fixture.pool.query('DELETE FROM processed_events'));

  /** A consumer's record of an event processed `ageMs` ago. */
  async function record(consumer: string, eventId: string, ageMs: number): Promise<void> {
    await fixture.pool.query(
      `INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ($1, $2, now() - make_interval(secs => $3::double precision / 1000))`,
      [consumer, eventId, ageMs],
    );
  }

  const records = async (): Promise<string[]> =>
    (await fixture.pool.query<{ r: string }>(`SELECT consumer || '/' || event_id AS r FROM processed_events ORDER BY 1`)).rows.map((row) => row.r);

  it('deletes only records older than the given age, of every consumer', async () => {
    const hour = 3_600_000;
    await record('a', 'e1', 170 * hour);
    await record('b', 'e1', 200 * hour);
    await record('a', 'e2', 167 * hour);
    await record('b', 'e3', 1_000);
    expect(await pruneProcessedEvents(fixture.pool, { olderThanMs: 169 * hour })).toBe(2);
    expect(await records()).toEqual(['a/e2', 'b/e3']);
    expect(await pruneProcessedEvents(fixture.pool, { olderThanMs: 169 * hour })).toBe(0);
  });

  it('deletes a record by consumer and event: another consumer\'s younger record of the same event stays', async () => {
    await record('old-consumer', 'shared', 10 * 60_000);
    await record('new-consumer', 'shared', 1_000);
    expect(await pruneProcessedEvents(fixture.pool, { olderThanMs: 60_000 })).toBe(1);
    expect(await records()).toEqual(['new-consumer/shared']);
  });

  it('deletes the oldest first, in batches, leaving the rest for the next call', async () => {
    for (const minutes of [3, 9, 5, 7, 2]) await record('c', `m${minutes}`, minutes * 60_000);
    expect(await pruneProcessedEvents(fixture.pool, { olderThanMs: 60_000, batchSize: 2, maxBatches: 1 })).toBe(2);
    expect(await records()).toEqual(['c/m2', 'c/m3', 'c/m5']);
    expect(await pruneProcessedEvents(fixture.pool, { olderThanMs: 60_000, batchSize: 2, maxBatches: 5 })).toBe(3);
    expect(await records()).toEqual([]);
  });

  it('skips a record another transaction holds (another replica pruning) instead of waiting', async () => {
    await record('d', 'held', 10_000);
    await record('d', 'free', 10_000);
    const client = await fixture.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT 1 FROM processed_events WHERE consumer = 'd' AND event_id = 'held' FOR UPDATE`);
      expect(await pruneProcessedEvents(fixture.pool, { olderThanMs: 1_000 })).toBe(1);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await records()).toEqual(['d/held']);
  });
});
