import type pg from 'pg';
import type { Logger } from '@exchange/platform';
import { captureLogs, testLogger } from '@exchange/testing';
import { idempotentConsumer, InProcessEventBus, OutboxRelay, type EventBus, type EventEnvelope } from '../src';
import { createOutboxDatabase, enqueueInTransaction, sideEffects, testEvent, unpublishedCount } from './outbox-fixture';
import { waitFor } from './wait-for';

/** The in-process bus behind a switch, to play a broker outage; counts every publish attempt. */
class SwitchableBus implements EventBus {
  readonly kind = 'in-process' as const;
  available = true;
  /** Event ids this bus refuses, as a broker refuses one message (too large, say). */
  readonly refused = new Set<string>();
  /** Event ids whose publish throws before returning a promise (a check a bus makes up front). */
  readonly thrownAtOnce = new Set<string>();
  readonly publishedIds: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  constructor(private readonly inner: InProcessEventBus) {}
  publish(event: EventEnvelope): Promise<void> {
    if (this.thrownAtOnce.has(event.id)) throw new Error(`refused ${event.id} at once`);
    return this.publishLater(event);
  }
  private async publishLater(event: EventEnvelope): Promise<void> {
    if (!this.available) throw new Error('broker unavailable');
    if (this.refused.has(event.id)) throw new Error(`refused ${event.id}`);
    this.publishedIds.push(event.id);
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    try {
      await this.inner.publish(event);
    } finally {
      this.inFlight -= 1;
    }
  }
  subscribe: EventBus['subscribe'] = (opts) => this.inner.subscribe(opts);
  listen: EventBus['listen'] = (opts) => this.inner.listen(opts);
  historyMs = () => this.inner.historyMs();
  close = () => this.inner.close();
}

function recordingConsumer(pool: pg.Pool, consumer: string) {
  return idempotentConsumer(pool, consumer, async (event, client) => {
    await client.query('INSERT INTO side_effects (event_id, consumer) VALUES ($1, $2)', [event.id, consumer]);
  });
}

describe('OutboxRelay with the in-process bus (real PostgreSQL)', () => {
  let fixture: Awaited<ReturnType<typeof createOutboxDatabase>>;
  let inner: InProcessEventBus;
  let bus: SwitchableBus;
  const relays: OutboxRelay[] = [];
  const newRelay = (opts: { logger?: Logger; batchSize?: number; pollIntervalMs?: number; coalesceMs?: number } = {}) => {
    const relay = new OutboxRelay({
      pool: fixture.pool,
      bus,
      logger: opts.logger ?? testLogger,
      pollIntervalMs: opts.pollIntervalMs ?? 20,
      maxBackoffMs: 50,
      batchSize: opts.batchSize,
      coalesceMs: opts.coalesceMs,
    });
    relays.push(relay);
    return relay;
  };

  beforeEach(async () => {
    fixture = await createOutboxDatabase('outbox_relay');
    inner = new InProcessEventBus({ logger: testLogger, retryBaseMs: 5, retryMaxMs: 20 });
    bus = new SwitchableBus(inner);
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
    await bus.close();
    await fixture.close();
  });

  it('publishes committed events in order and marks them published', async () => {
    await bus.subscribe({ durable: 'c', subjects: ['exchange.>'], handler: recordingConsumer(fixture.pool, 'c') });
    const events = [testEvent('exchange', 'one'), testEvent('exchange', 'two'), testEvent('exchange', 'three')];
    for (const event of events) await enqueueInTransaction(fixture.pool, event);
    const relay = newRelay();
    relay.start();
    await waitFor('three side effects', async () => (await sideEffects(fixture.pool, 'c')).length === 3);
    expect(bus.publishedIds).toEqual(events.map((e) => e.id));
    expect(await unpublishedCount(fixture.pool)).toBe(0);
    const stored = await fixture.pool.query('SELECT payload FROM outbox_events WHERE id = $1', [events[0].id]);
    expect(stored.rows[0].payload).toEqual(events[0]);
  });

  it('gathers the commits that land while it coalesces into one round', async () => {
    const relay = newRelay({ pollIntervalMs: 60_000, coalesceMs: 400 });
    relay.start();
    await waitFor('the first (empty) round', () => relay.status().rounds >= 1);
    const roundsBefore = relay.status().rounds;
    const events = Array.from({ length: 5 }, (_, i) => testEvent('exchange', `burst_${i}`));
    await enqueueInTransaction(fixture.pool, events[0]);
    relay.notify(); // the first commit wakes it; the four others arrive while it waits
    for (const event of events.slice(1)) await enqueueInTransaction(fixture.pool, event);
    await waitFor('all five published', () => relay.status().published === 5);
    expect(relay.status().rounds).toBe(roundsBefore + 1);
    expect(bus.publishedIds).toEqual(events.map((e) => e.id));
  });

  it('sends a round\'s events at once while the bus is healthy, in their order', async () => {
    const events = Array.from({ length: 8 }, (_, i) => testEvent('exchange', `at_once_${i}`));
    for (const event of events) await enqueueInTransaction(fixture.pool, event);
    const relay = newRelay();
    relay.start();
    await waitFor('all eight published', async () => (await unpublishedCount(fixture.pool)) === 0);
    expect(bus.publishedIds).toEqual(events.map((e) => e.id));
    expect(bus.maxInFlight).toBe(8);
  });

  // A publish that rejects, or one that throws before returning a promise: either fails its event
  // alone. The round still sends the rest and marks only the prefix; later rounds go one by one.
  it.each([
    ['rejected', 'refused', (id: string) => `refused ${id}`],
    ['thrown synchronously', 'thrownAtOnce', (id: string) => `refused ${id} at once`],
  ] as const)('marks only the prefix before a %s publish, then goes one by one until it passes', async (label, set, message) => {
    const events = Array.from({ length: 4 }, (_, i) => testEvent('exchange', `${set === 'refused' ? 'prefix' : 'thrown'}_${i}`));
    for (const event of events) await enqueueInTransaction(fixture.pool, event);
    bus[set].add(events[1].id);
    const relay = newRelay();
    relay.start();
    await waitFor(`three failed rounds (${label})`, () => relay.status().failedRounds >= 3);
    // First round: all sent at once, only events[0] acknowledged before the refusal gets marked;
    // events[2..3] went out once. Later rounds stop at the refused event: no further copies.
    expect(await unpublishedCount(fixture.pool)).toBe(3);
    expect(bus.publishedIds).toEqual([events[0].id, events[2].id, events[3].id]);
    expect(relay.status().lastError).toBe(message(events[1].id));

    bus[set].clear();
    await waitFor('the outbox to drain', async () => (await unpublishedCount(fixture.pool)) === 0);
    // The copies of events[2..3] are the bus's to deduplicate (same ids).
    expect(bus.publishedIds).toEqual([events[0].id, events[2].id, events[3].id, events[1].id, events[2].id, events[3].id]);
  });

  it('publishes nothing for a rolled-back transaction', async () => {
    const seen: string[] = [];
    await bus.subscribe({ durable: 'all', subjects: ['exchange.>'], handler: async (e) => void seen.push(e.id) });
    const relay = newRelay();
    relay.start();
    const rolledBack = testEvent('exchange', 'rolled_back');
    await enqueueInTransaction(fixture.pool, rolledBack, 'rollback');
    const marker = testEvent('exchange', 'marker');
    await enqueueInTransaction(fixture.pool, marker);
    relay.notify();
    await waitFor('the marker event', () => seen.includes(marker.id));
    expect(seen).toEqual([marker.id]);
    expect(bus.publishedIds).toEqual([marker.id]);
  });

  it('keeps events while the bus is down, logs the outage once, and delivers them afterwards', async () => {
    const { lines, logger } = captureLogs('relay-test');
    await bus.subscribe({ durable: 'c', subjects: ['exchange.>'], handler: recordingConsumer(fixture.pool, 'c') });
    bus.available = false;
    const relay = newRelay({ logger });
    relay.start();
    const events = [testEvent('exchange', 'a'), testEvent('exchange', 'b')];
    for (const event of events) await enqueueInTransaction(fixture.pool, event);
    relay.notify();
    await waitFor('several failed rounds', () => relay.status().failedRounds >= 3);
    expect(await unpublishedCount(fixture.pool)).toBe(2);
    expect(relay.status().lastError).toBe('broker unavailable');

    bus.available = true;
    await waitFor('both side effects', async () => (await sideEffects(fixture.pool, 'c')).length === 2);
    expect((await sideEffects(fixture.pool, 'c')).sort()).toEqual(events.map((e) => e.id).sort());
    await waitFor('the relay to report recovery', () => relay.status().lastError === null);
    const warnings = lines.filter((line) => String(line.msg).includes('cannot publish'));
    expect(warnings).toHaveLength(1);
    const recovered = lines.filter((line) => String(line.msg).includes('publishing again'));
    expect(recovered).toHaveLength(1);
    expect(recovered[0].failed_rounds).toBeGreaterThanOrEqual(3); // counted before the reset
  });

  it('processes a redelivered event once with idempotentConsumer', async () => {
    const consumer = recordingConsumer(fixture.pool, 'once');
    let deliveries = 0;
    // The first delivery commits its work, then fails before the ack, as a crash would:
    // the bus redelivers, the consumer must not apply it again.
    await bus.subscribe({
      durable: 'once',
      subjects: ['exchange.>'],
      handler: async (event) => {
        deliveries += 1;
        await consumer(event);
        if (deliveries === 1) throw new Error('lost ack');
      },
    });
    const event = testEvent('exchange', 'once');
    await enqueueInTransaction(fixture.pool, event);
    newRelay().start();
    await waitFor('the redelivery', () => deliveries >= 2);
    expect(await sideEffects(fixture.pool, 'once')).toEqual([event.id]);
    const processed = await fixture.pool.query('SELECT consumer, event_id FROM processed_events');
    expect(processed.rows).toEqual([{ consumer: 'once', event_id: event.id }]);
  });

  it('rolls back the handler writes and the processed mark when the handler fails', async () => {
    const event = testEvent('exchange', 'failing');
    const failing = idempotentConsumer(fixture.pool, 'failing', async (e, client) => {
      await client.query('INSERT INTO side_effects (event_id, consumer) VALUES ($1, $2)', [e.id, 'failing']);
      throw new Error('handler failed');
    });
    await expect(failing(event)).rejects.toThrow('handler failed');
    expect(await sideEffects(fixture.pool, 'failing')).toEqual([]);
    expect((await fixture.pool.query('SELECT 1 FROM processed_events')).rowCount).toBe(0);
    await recordingConsumer(fixture.pool, 'failing')(event);
    expect(await sideEffects(fixture.pool, 'failing')).toEqual([event.id]);
  });

  it('two relays on one outbox publish every event exactly once', async () => {
    const events = Array.from({ length: 60 }, (_, i) => testEvent('exchange', `n${i}`));
    for (const event of events) await enqueueInTransaction(fixture.pool, event);
    newRelay({ batchSize: 5 }).start();
    newRelay({ batchSize: 5 }).start();
    await waitFor('the outbox to drain', async () => (await unpublishedCount(fixture.pool)) === 0);
    expect(bus.publishedIds).toHaveLength(60);
    expect(new Set(bus.publishedIds).size).toBe(60);
  });

  it('stop() flushes events enqueued after the last poll', async () => {
    const relay = new OutboxRelay({ pool: fixture.pool, bus, logger: testLogger, pollIntervalMs: 60_000 });
    relays.push(relay);
    relay.start();
    await waitFor('the first (empty) round', () => relay.status().rounds >= 1);
    const event = testEvent('exchange', 'late');
    await enqueueInTransaction(fixture.pool, event);
    await relay.stop();
    expect(bus.publishedIds).toContain(event.id);
    expect(await unpublishedCount(fixture.pool)).toBe(0);
  });
});
