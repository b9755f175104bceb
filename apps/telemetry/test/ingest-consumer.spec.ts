import { InProcessEventBus, type EventBus, type EventEnvelope, type SubscribeOptions } from '@exchange/events';
import { marketV1 } from '@exchange/proto';
import { testLogger } from '@exchange/testing';
import { readTelemetryConfig, startTelemetry } from '../src/index';
import { startEventConsumer } from '../src/ingest/event-consumer.handlers';
import { ingestBatch, ingestEvents } from '../src/ingest/event-store.repo';
import { contractEvent, envelope, newParties } from './ingest-fixtures';
import { allRecorded, migratedStore, recorded, until, type StoreDb } from './ingest-support';

// The durable consumer on the in-process bus (the embedded run mode): at least once, recorded once.

const C = marketV1.ContractStatus;

describe('telemetry event consumer (in-process bus)', () => {
  let store: StoreDb;
  let bus: InProcessEventBus;

  beforeAll(async () => {
    store = await migratedStore('telemetry_consumer');
    bus = new InProcessEventBus({ logger: testLogger, retryBaseMs: 10, retryMaxMs: 50 });
  });
  afterAll(async () => {
    await bus?.close();
    await store?.close();
  });

  const lifecycle = (tag: string): EventEnvelope[] => {
    const p = newParties(tag);
    return [
      contractEvent(p, 'created'),
      contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1 }),
      contractEvent(p, 'delivered', { status: C.CONTRACT_STATUS_DELIVERED, minutes: 2 }),
      contractEvent(p, 'settled', { status: C.CONTRACT_STATUS_SETTLED, minutes: 3 }),
    ];
  };
  const ids = (events: EventEnvelope[]) => events.map((e) => e.id);

  it('records every event once across a restart of the subscription, duplicates acknowledged', async () => {
    const durable = 'telemetry-events-restart';
    const first = lifecycle('r1');
    let sub = await startEventConsumer({ bus, pool: store.pool, logger: testLogger, notify: () => undefined, durable });
    for (const e of first) await bus.publish(e);
    await allRecorded(store.pool, ids(first));

    await sub.stop();
    // While stopped: new events, and two already recorded by an earlier delivery (as after a crash
    // between the commit and the ack) that the bus hands out again.
    const second = lifecycle('r2');
    const recordedBefore = lifecycle('r3');
    expect(await ingestEvents(store.pool, recordedBefore.slice(0, 2))).toBe(2);
    for (const e of [...second, ...recordedBefore]) await bus.publish(e);

    sub = await startEventConsumer({ bus, pool: store.pool, logger: testLogger, notify: () => undefined, durable });
    const all = [...first, ...second, ...recordedBefore];
    const rows = await allRecorded(store.pool, ids(all));
    expect([...rows.values()].every((n) => n === 1)).toBe(true);
    const facts = await store.pool.query("SELECT count(*)::int AS n FROM contract_facts WHERE status = 'settled' AND contract_id = ANY($1)", [
      [...new Set(all.map((e) => e.subject_id))],
    ]);
    expect(facts.rows[0].n).toBe(3);
    await sub.stop();
  });

  it('acknowledges malformed events (logged) so the stream behind them keeps flowing', async () => {
    const durable = 'telemetry-events-poison';
    const sub = await startEventConsumer({ bus, pool: store.pool, logger: testLogger, notify: () => undefined, durable });
    const p = newParties('poison');
    const badTime = { ...contractEvent(p, 'created'), occurred_at: 'yesterday' };
    const badAmount = contractEvent(newParties('poison2'), 'created');
    (badAmount.data as { contract: { budget: { amount: string } } }).contract.budget.amount = 'lots';
    const noData = { ...envelope('exchange.market.listing.created', 'lst_x', {}, p.at), data: null as unknown };
    const good = lifecycle('after');
    for (const e of [badTime, badAmount, noData, ...good]) await bus.publish(e as EventEnvelope);
    await allRecorded(store.pool, ids(good));
    expect((await recorded(store.pool, [badTime.id, badAmount.id, noData.id])).size).toBe(0);
    await sub.stop();
  });

  it('records a batch in one transaction: an event that cannot be recorded rolls back the batch, not only itself', async () => {
    const good = lifecycle('batch');
    const badAmount = contractEvent(newParties('batch_poison'), 'created');
    (badAmount.data as { contract: { budget: { amount: string } } }).contract.budget.amount = 'lots';
    await expect(ingestBatch(store.pool, [...good.slice(0, 2), badAmount, ...good.slice(2)])).rejects.toThrow();
    expect((await recorded(store.pool, ids(good))).size).toBe(0);
    expect(await ingestBatch(store.pool, good)).toBe(4);
    expect(await ingestBatch(store.pool, good)).toBe(0); // once by id
  });

  /** `inner` with every batch handed to the consumer's batch handler recorded, and those it failed. */
  const observing = (inner: EventBus) => {
    const batches: string[][] = [];
    const failed: string[][] = [];
    const observed: EventBus = {
      kind: inner.kind,
      publish: (e) => inner.publish(e),
      close: async () => undefined,
      historyMs: () => inner.historyMs(),
      listen: (opts) => inner.listen(opts),
      subscribe: (opts: SubscribeOptions) => {
        const watched =
          <T>(fn: (x: T) => Promise<void>, ofCall: (x: T) => string[]) =>
          (x: T) => {
            batches.push(ofCall(x));
            return fn(x).catch((err) => (failed.push(ofCall(x)), Promise.reject(err)));
          };
        return inner.subscribe({
          ...opts,
          handler: watched(opts.handler, (e) => [e.id]),
          batch: opts.batch && { ...opts.batch, handler: watched(opts.batch.handler, ids) },
        });
      },
    };
    return { bus: observed, batches, failed };
  };

  it('a database failure is not acknowledged: the event comes back and is recorded once', async () => {
    const { bus: observed, failed } = observing(bus);
    const sub = await startEventConsumer({ bus: observed, pool: store.pool, logger: testLogger, notify: () => undefined, durable: 'telemetry-events-dbfail' });
    await store.pool.query('ALTER TABLE events RENAME TO events_away');
    const late = lifecycle('dbfail');
    try {
      for (const e of late) await bus.publish(e);
      await until(async () => failed.length >= 2);
    } finally {
      await store.pool.query('ALTER TABLE events_away RENAME TO events');
    }
    const rows = await allRecorded(store.pool, ids(late));
    expect([...rows.values()]).toEqual([1, 1, 1, 1]);
    await sub.stop();
  });

  it('an event the database refuses (a NUL in its text) keeps coming back; the rest of its batch is recorded', async () => {
    // Its own bus, so the batch holds exactly these events (the shared one replays its history).
    const own = new InProcessEventBus({ logger: testLogger, retryBaseMs: 10, retryMaxMs: 50 });
    const { bus: observed, batches, failed } = observing(own);
    const logger = testLogger.child({ test: 'refused' });
    const warn = jest.spyOn(logger, 'warn');
    const good = lifecycle('refused');
    // A producer passing an agent's text through: jsonb cannot hold \u0000 (22P05), not a DomainError.
    const refused = contractEvent(newParties('nul'), 'created');
    (refused.data as { contract: { description: string } }).contract.description = 'boxes\u0000and labels';
    const batch = [good[0], good[1], refused, good[2], good[3]];
    const sub = await startEventConsumer({ bus: observed, pool: store.pool, logger, notify: () => undefined, durable: 'telemetry-events-refused' });
    try {
      for (const e of batch) await own.publish(e);
      const rows = await allRecorded(store.pool, ids(good), 10_000);
      expect([...rows.values()]).toEqual([1, 1, 1, 1]);
      await until(async () => failed.length >= 3, 10_000);
      expect(batches[0]).toEqual(ids(batch)); // one batch, the refused event in its middle
      expect(failed.every((b) => b.includes(refused.id))).toBe(true);
      expect((await recorded(store.pool, [refused.id])).size).toBe(0);
      const facts = await store.pool.query<{ status: string }>('SELECT status FROM contract_facts WHERE contract_id = $1', [good[0].subject_id]);
      expect(facts.rows).toEqual([{ status: 'settled' }]);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ events: 5, code: '22P05', err: expect.stringMatching(/unicode/i) }), expect.stringMatching(/batch/));
    } finally {
      await sub.stop();
      await own.close();
    }
  });

  it('the service started with a bus (embedded mode) records what is published on it', async () => {
    const own = await migratedStore('telemetry_consumer_service');
    const shared = new InProcessEventBus({ logger: testLogger });
    const telemetry = await startTelemetry(readTelemetryConfig({ DATABASE_URL: own.db.url, GRPC_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), {
      logger: testLogger,
      bus: shared,
    });
    try {
      const events = lifecycle('svc');
      for (const e of events) await shared.publish(e);
      await allRecorded(own.pool, ids(events));
    } finally {
      await telemetry.stop();
      await shared.close();
      await own.close();
    }
  });
});
