import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type pg from 'pg';
import type { Logger } from '@exchange/platform';
import { captureLogs, describeWithNats, testLogger } from '@exchange/testing';
import { createEventBus, idempotentConsumer, NatsEventBus, newEvent, OutboxRelay, type EventBus, type EventEnvelope } from '../src';
import { failingFirstBatch } from './failing-first-batch';
import { createOutboxDatabase, enqueueInTransaction, sideEffects, testEvent } from './outbox-fixture';
import { waitFor } from './wait-for';

// Own stream and subject namespace per run: the shared server's EXCHANGE stream is never touched.
describeWithNats('JetStream event bus (real NATS + PostgreSQL)', (natsUrl) => {
  const suffix = randomBytes(4).toString('hex');
  const streamName = `EXCHANGE_TEST_${suffix}`;
  const prefix = `test${suffix}`;
  let bus: EventBus;
  let fixture: Awaited<ReturnType<typeof createOutboxDatabase>>;
  let relay: OutboxRelay;

  const recording = (pool: pg.Pool, consumer: string) =>
    idempotentConsumer(pool, consumer, async (event, client) => {
      await client.query('INSERT INTO side_effects (event_id, consumer) VALUES ($1, $2)', [event.id, consumer]);
    });

  const storedMessages = async () => {
    const nc = await connect({ servers: natsUrl });
    const info = await (await jetstreamManager(nc)).streams.info(streamName);
    await nc.close();
    return info.state.messages;
  };

  /**
   * Runs `body` with a stream name of its own (`<run stream>_<suffix>`, subjects `<prefix><suffix>.>`)
   * and a JetStream manager; the buses it opens through `open` are closed and the stream deleted
   * afterwards, whatever happens.
   */
  const withScratchStream = async (
    suffix: string,
    body: (s: { stream: string; subjects: string; jsm: JetStreamManager; open: (maxAgeMs?: number, logger?: Logger) => Promise<EventBus> }) => Promise<void>,
  ) => {
    const stream = `${streamName}_${suffix.toUpperCase()}`;
    const subjectPrefix = `${prefix}${suffix}`;
    const nc = await connect({ servers: natsUrl });
    const jsm = await jetstreamManager(nc);
    const buses: EventBus[] = [];
    const open = async (maxAgeMs?: number, logger: Logger = testLogger) => {
      const opened = await createEventBus({ natsUrl, logger, streamName: stream, subjectPrefix, maxAgeMs });
      buses.push(opened);
      return opened;
    };
    try {
      await body({ stream, subjects: `${subjectPrefix}.>`, jsm, open });
    } finally {
      for (const opened of buses) await opened.close();
      await jsm.streams.delete(stream).catch(() => undefined);
      await nc.close();
    }
  };

  beforeAll(async () => {
    bus = await createEventBus({ natsUrl, logger: testLogger, streamName, subjectPrefix: prefix });
  });
  afterAll(async () => {
    await bus.close();
    const nc = await connect({ servers: natsUrl });
    await (await jetstreamManager(nc)).streams.delete(streamName).catch(() => undefined);
    await nc.close();
  });
  beforeEach(async () => {
    fixture = await createOutboxDatabase('nats_bus');
    relay = new OutboxRelay({ pool: fixture.pool, bus, logger: testLogger, pollIntervalMs: 20 });
  });
  afterEach(async () => {
    await relay.stop();
    await fixture.close();
  });

  it('creates its stream with file storage and a duplicate window of at least 2 minutes', async () => {
    const nc = await connect({ servers: natsUrl });
    const info = await (await jetstreamManager(nc)).streams.info(streamName);
    await nc.close();
    expect(info.config.subjects).toEqual([`${prefix}.>`]);
    expect(info.config.storage).toBe('file');
    expect(info.config.duplicate_window).toBeGreaterThanOrEqual(120 * 1e9);
  });

  it('keeps events for ever unless given maxAgeMs; a bus given one sets it on the stream, and reports it as its history', async () => {
    await withScratchStream('age', async ({ stream, jsm, open }) => {
      const maxAge = async () => (await jsm.streams.info(stream)).config.max_age;
      const listener = await open(); // the gateway's kind of bus: creates the stream, no limit
      expect(await maxAge()).toBe(0);
      expect(await listener.historyMs()).toBe(Infinity);
      const service = await open(2 * 3_600_000); // a service with EVENTS_RETENTION_HOURS=2 changes it
      expect(await maxAge()).toBe(2 * 3_600 * 1e9);
      // Every bus reads the stream as it is now, the one that did not set it too.
      expect(await listener.historyMs()).toBe(2 * 3_600_000);
      expect(await service.historyMs()).toBe(2 * 3_600_000);
      await open(); // leaves an existing stream's retention as it is
      expect(await maxAge()).toBe(2 * 3_600 * 1e9);
      await open(0); // EVENTS_RETENTION_HOURS=0: for ever again
      expect(await maxAge()).toBe(0);
      expect(await service.historyMs()).toBe(Infinity);
    });
  });

  it('applies its max_age when another bus creates the stream between its look and its add', async () => {
    await withScratchStream('race', async ({ stream, jsm, open }) => {
      // Listen-only buses (no retention) and services started together on a fresh server: which
      // add wins varies; the services' max_age must be on the stream whichever does.
      await Promise.all([undefined, 3 * 3_600_000, undefined, 3 * 3_600_000, undefined].map((maxAgeMs) => open(maxAgeMs)));
      expect((await jsm.streams.info(stream)).config.max_age).toBe(3 * 3_600 * 1e9);
    });
  });

  it('a stream it creates with maxAgeMs has that max_age from the start; a retention JetStream would refuse is refused first', async () => {
    await withScratchStream('new', async ({ stream, jsm, open }) => {
      // Shorter than the 2-minute duplicate window, not a whole number of ms, unbounded: refused before anything is created.
      await expect(open(90_000)).rejects.toThrow(/at least 120000, got 90000/);
      await expect(open(180_000.5)).rejects.toThrow(/got 180000.5/);
      await expect(open(Infinity)).rejects.toThrow(/got Infinity/);
      await expect(jsm.streams.info(stream)).rejects.toThrow(/not found/);
      const bus = await open(180_000);
      expect((await jsm.streams.info(stream)).config.max_age).toBe(180 * 1e9);
      expect(await bus.historyMs()).toBe(180_000);
    });
  });

  it('reports no history limit while it cannot read the stream, logging that once until it can again', async () => {
    await withScratchStream('gone', async ({ stream, subjects, jsm, open }) => {
      const { lines, logger } = captureLogs('history-test');
      const bus = await open(3_600_000, logger);
      expect(await bus.historyMs()).toBe(3_600_000);
      await jsm.streams.delete(stream); // an operator removed it, or the account may no longer read it
      // Never a finite guess: that would prune records the stream may still redeliver.
      expect(await bus.historyMs()).toBe(Infinity);
      expect(await bus.historyMs()).toBe(Infinity);
      const cannot = () => lines.filter((line) => String(line.msg).startsWith('cannot read the event stream retention'));
      expect(cannot()).toHaveLength(1);
      await jsm.streams.add({ name: stream, subjects: [subjects], max_age: 7_200 * 1e9 });
      expect(await bus.historyMs()).toBe(7_200_000);
      expect(lines.filter((line) => line.msg === 'event stream retention readable again')).toHaveLength(1);
    });
  });

  it('listen: each connection (replica) gets every live event once, unlike a shared durable', async () => {
    const other = await createEventBus({ natsUrl, logger: testLogger, streamName, subjectPrefix: prefix });
    const here: EventEnvelope[] = [];
    const there: EventEnvelope[] = [];
    // Own subjects: the later durable tests read this stream's whole history of test.thing.*.
    const subject = `${prefix}.live.thing.*`;
    const live = (verb: string) => newEvent({ type: `${prefix}.live.thing.${verb}`, source: 'test', subjectId: 'thing_1', data: {} });
    const subs = [await bus.listen({ subjects: [subject], handler: async (e) => void here.push(e) }), await other.listen({ subjects: [subject], handler: async (e) => void there.push(e) })];
    try {
      const events = [live('frozen'), live('unfrozen')];
      for (const e of events) await bus.publish(e);
      await waitFor('both listeners', () => here.length === 2 && there.length === 2);
      expect(here.map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect(there.map((e) => e.id)).toEqual(events.map((e) => e.id));
    } finally {
      for (const sub of subs) await sub.stop();
      await other.close();
    }
  });

  it('delivers committed outbox events to a durable consumer, not rolled-back ones', async () => {
    const seen: EventEnvelope[] = [];
    const sub = await bus.subscribe({ durable: `d1_${suffix}`, subjects: [`${prefix}.test.thing.*`], handler: async (e) => void seen.push(e) });
    relay.start();
    const rolledBack = testEvent(prefix, 'rolled_back');
    await enqueueInTransaction(fixture.pool, rolledBack, 'rollback');
    const committed = testEvent(prefix, 'committed', { amount: '12500000' });
    await enqueueInTransaction(fixture.pool, committed);
    relay.notify();
    await waitFor('the committed event', () => seen.some((e) => e.id === committed.id));
    await sub.stop();
    expect(seen).toEqual([committed]);
  });

  it('a relay round sent at once reaches a durable in commit order', async () => {
    const seen: string[] = [];
    const sub = await bus.subscribe({ durable: `d_order_${suffix}`, subjects: [`${prefix}.test.thing.ordered`], handler: async (e) => void seen.push(e.id) });
    const events = Array.from({ length: 60 }, () => testEvent(prefix, 'ordered'));
    for (const event of events) await enqueueInTransaction(fixture.pool, event);
    relay.start();
    await waitFor('all sixty', () => seen.length === 60);
    await sub.stop();
    expect(seen).toEqual(events.map((e) => e.id));
  });

  it('a batch durable gets the waiting events in order and in batches; a throw redelivers the whole batch', async () => {
    const events = Array.from({ length: 40 }, () => testEvent(prefix, 'batched'));
    for (const event of events) await bus.publish(event);
    // Fails the first batch of more than one event (the first read may hold a single message).
    const failing = failingFirstBatch(2);
    const { calls, handler } = failing;
    const single: string[] = [];
    const sub = await bus.subscribe({
      durable: `d_batch_${suffix}`,
      subjects: [`${prefix}.test.thing.batched`],
      handler: async (e) => void single.push(e.id),
      batch: { max: 16, handler },
    });
    const ids = events.map((e) => e.id);
    const acceptedCalls = () => calls.filter((_, i) => i !== failing.failedAt);
    await waitFor('every event acknowledged once', () => failing.failedAt >= 0 && new Set(acceptedCalls().flat()).size === 40, 15_000);
    await sub.stop();
    const rejected = calls[failing.failedAt];
    const accepted = acceptedCalls();
    expect(rejected.length).toBeGreaterThan(1);
    expect(calls.every((batch) => batch.length <= 16)).toBe(true);
    // Everything after the failed batch arrives in stream order, the redelivered batch whole.
    expect(accepted.flat().filter((id) => !rejected.includes(id))).toEqual(ids.filter((id) => !rejected.includes(id)));
    expect(accepted.flat().filter((id) => rejected.includes(id))).toEqual(rejected);
    expect(single).toEqual([]);
  });

  it('fills a batch larger than 64 when that many are waiting (the pull asks for max)', async () => {
    const events = Array.from({ length: 150 }, () => testEvent(prefix, 'large'));
    for (const event of events) await bus.publish(event);
    const calls: string[][] = [];
    const sub = await bus.subscribe({
      durable: `d_large_${suffix}`,
      subjects: [`${prefix}.test.thing.large`],
      handler: async () => undefined,
      batch: { max: 150, handler: async (batch) => void calls.push(batch.map((e) => e.id)) },
    });
    await waitFor('all 150', () => calls.flat().length >= 150);
    await sub.stop();
    expect(calls.flat()).toEqual(events.map((e) => e.id));
    expect(Math.max(...calls.map((batch) => batch.length))).toBeGreaterThan(64);
  });

  it('refuses a batch max that is not an integer ≥ 1 before creating the durable', async () => {
    const durable = `d_badmax_${suffix}`;
    for (const max of [NaN, 0, 2.5]) {
      const subscribing = bus.subscribe({ durable, subjects: [`${prefix}.test.thing.badmax`], handler: async () => undefined, batch: { max, handler: async () => undefined } });
      await expect(subscribing).rejects.toThrow(/batch\.max must be an integer/);
    }
    const nc = await connect({ servers: natsUrl });
    try {
      await expect((await jetstreamManager(nc)).consumers.info(streamName, durable)).rejects.toThrow(/not found/i);
    } finally {
      await nc.close();
    }
  });

  it('stop() returns when something throws out of the delivery loop (here the failure log)', async () => {
    const nc = await connect({ servers: natsUrl });
    const logger: typeof testLogger = Object.assign(Object.create(testLogger), {
      warn: () => {
        throw new Error('log transport down');
      },
    });
    const own = new NatsEventBus(nc, await jetstreamManager(nc), jetstream(nc), { streamName, subjectPrefix: prefix, logger, publishTimeoutMs: 5_000 });
    try {
      await bus.publish(testEvent(prefix, 'unlogged'));
      let handled = 0;
      const sub = await own.subscribe({
        durable: `d_unlogged_${suffix}`,
        subjects: [`${prefix}.test.thing.unlogged`],
        handler: async () => {
          handled += 1;
          throw new Error('handler failed');
        },
      });
      await waitFor('the handler', () => handled > 0);
      const outcome = await Promise.race([
        sub.stop().then(
          () => 'stopped',
          (err: Error) => `stopped: ${err.message}`,
        ),
        new Promise((resolve) => setTimeout(resolve, 3_000, 'hung')),
      ]);
      expect(outcome).toBe('stopped: log transport down');
      expect(handled).toBe(1);
    } finally {
      if (!nc.isClosed()) await nc.close();
    }
  });

  it('stores an event published twice once (Nats-Msg-Id) and processes a redelivery once', async () => {
    const consumer = recording(fixture.pool, 'redelivery');
    let deliveries = 0;
    const sub = await bus.subscribe({
      durable: `d2_${suffix}`,
      subjects: [`${prefix}.test.thing.twice`, `${prefix}.test.thing.marker`],
      handler: async (event) => {
        deliveries += 1;
        await consumer(event);
        // Work committed, ack lost: JetStream redelivers after the nak.
        if (deliveries === 1) throw new Error('lost ack');
      },
    });
    const storedBefore = await storedMessages();
    const event = testEvent(prefix, 'twice');
    await bus.publish(event);
    await bus.publish(event);
    const marker = testEvent(prefix, 'marker');
    await bus.publish(marker);
    expect((await storedMessages()) - storedBefore).toBe(2); // the second publish was a duplicate
    await waitFor('the redelivery and the marker', () => deliveries >= 3);
    await sub.stop();
    expect((await sideEffects(fixture.pool, 'redelivery')).sort()).toEqual([event.id, marker.id].sort());
  });

  it('resumes a durable where it stopped', async () => {
    const first: string[] = [];
    const durable = `d3_${suffix}`;
    const subjects = [`${prefix}.test.thing.resume`];
    let sub = await bus.subscribe({ durable, subjects, handler: async (e) => void first.push(e.id) });
    const a = testEvent(prefix, 'resume');
    await bus.publish(a);
    await waitFor('event a', () => first.includes(a.id));
    await sub.stop();
    const b = testEvent(prefix, 'resume');
    await bus.publish(b);
    const second: string[] = [];
    sub = await bus.subscribe({ durable, subjects, handler: async (e) => void second.push(e.id) });
    await waitFor('event b', () => second.includes(b.id));
    await sub.stop();
    expect(first).toEqual([a.id]);
    expect(second).toEqual([b.id]);
  });

  it('refuses to publish outside its stream subjects', async () => {
    await expect(bus.publish(testEvent('elsewhere', 'x'))).rejects.toThrow(/outside stream/);
  });
});
