import { testLogger } from '@exchange/testing';
import { newEvent, type EventEnvelope } from './envelope';
import { InProcessEventBus } from './in-process-event-bus';
import { failingFirstBatch } from '../test/failing-first-batch';
import { waitFor } from '../test/wait-for';

const event = (type: string, data: unknown = {}) => newEvent({ type, source: 'test', subjectId: 'x', data });

function collector() {
  const seen: EventEnvelope[] = [];
  let notify: (() => void) | null = null;
  return {
    seen,
    handler: async (e: EventEnvelope) => {
      seen.push(e);
      notify?.();
    },
    /** Resolves once `count` events were handled. */
    until: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => seen.length >= count && resolve();
        notify = check;
        check();
      }),
  };
}

describe('InProcessEventBus', () => {
  let bus: InProcessEventBus;
  beforeEach(() => {
    bus = new InProcessEventBus({ logger: testLogger, retryBaseMs: 5, retryMaxMs: 20 });
  });
  afterEach(() => bus.close());

  it('delivers after publish returns, only to matching durables', async () => {
    const agents = collector();
    const all = collector();
    await bus.subscribe({ durable: 'agents', subjects: ['exchange.identity.agent.*'], handler: agents.handler });
    await bus.subscribe({ durable: 'all', subjects: ['exchange.>'], handler: all.handler });
    const registered = event('exchange.identity.agent.registered');
    await bus.publish(registered);
    expect(agents.seen).toHaveLength(0); // asynchronous, like a broker
    await bus.publish(event('exchange.market.contract.awarded'));
    await all.until(2);
    await agents.until(1);
    expect(agents.seen.map((e) => e.id)).toEqual([registered.id]);
    expect(all.seen.map((e) => e.type)).toEqual(['exchange.identity.agent.registered', 'exchange.market.contract.awarded']);
  });

  it('deduplicates a republished event id', async () => {
    const c = collector();
    await bus.subscribe({ durable: 'd', subjects: ['exchange.>'], handler: c.handler });
    const e = event('exchange.a.b.c');
    await bus.publish(e);
    await bus.publish(e);
    const marker = event('exchange.a.b.marker');
    await bus.publish(marker);
    await c.until(2);
    expect(c.seen.map((x) => x.id)).toEqual([e.id, marker.id]);
  });

  it('retries a failing handler until it succeeds', async () => {
    let failures = 2;
    const c = collector();
    await bus.subscribe({
      durable: 'flaky',
      subjects: ['exchange.>'],
      handler: async (e) => {
        if (failures-- > 0) throw new Error('not yet');
        await c.handler(e);
      },
    });
    const e = event('exchange.a.b.c');
    await bus.publish(e);
    await c.until(1);
    expect(c.seen.map((x) => x.id)).toEqual([e.id]);
    expect(failures).toBe(-1);
  });

  it('a batch subscriber gets the waiting events in order, at most `max` at a time; a throw retries the whole batch', async () => {
    const events = Array.from({ length: 7 }, () => event('exchange.test.thing.batched'));
    for (const e of events) await bus.publish(e);
    const { calls, handler } = failingFirstBatch();
    const single: EventEnvelope[] = [];
    await bus.subscribe({ durable: 'batched', subjects: ['exchange.>'], handler: async (e) => void single.push(e), batch: { max: 3, handler } });
    const ids = events.map((e) => e.id);
    await waitFor('ten deliveries', () => calls.flat().length >= 10, 2_000);
    // The failed first batch comes back after the others, whole.
    expect(calls).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6), ids.slice(0, 3)]);
    expect(single).toEqual([]);
  });

  it('refuses a batch max that is not an integer ≥ 1, leaving no durable behind', async () => {
    const e = event('exchange.test.thing.sized');
    await bus.publish(e);
    const calls: string[][] = [];
    const handler = async (events: EventEnvelope[]) => void calls.push(events.map((x) => x.id));
    for (const max of [NaN, 0, 1.5]) {
      await expect(bus.subscribe({ durable: 'sized', subjects: ['exchange.>'], handler: async () => undefined, batch: { max, handler } })).rejects.toThrow(/batch\.max must be an integer/);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
    // Nothing was registered: the same durable subscribes afterwards and gets the history.
    await bus.subscribe({ durable: 'sized', subjects: ['exchange.>'], handler: async () => undefined, batch: { max: 2, handler } });
    await waitFor('the history', () => calls.length > 0, 2_000);
    expect(calls).toEqual([[e.id]]);
  });

  it('gives a new durable the retained history and keeps events for a stopped durable', async () => {
    const early = event('exchange.a.b.early');
    await bus.publish(early);
    const first = collector();
    const sub = await bus.subscribe({ durable: 'late', subjects: ['exchange.>'], handler: first.handler });
    await first.until(1);
    await sub.stop();
    const whileStopped = event('exchange.a.b.while_stopped');
    await bus.publish(whileStopped);
    const second = collector();
    await bus.subscribe({ durable: 'late', subjects: ['exchange.>'], handler: second.handler });
    await second.until(1);
    expect(first.seen.map((x) => x.id)).toEqual([early.id]);
    expect(second.seen.map((x) => x.id)).toEqual([whileStopped.id]);
  });

  it('gives a new durable only the history younger than maxAgeMs, and reports that age as its history', async () => {
    let now = 1_000_000;
    const aging = new InProcessEventBus({ logger: testLogger, maxAgeMs: 60_000, now: () => now });
    try {
      expect(await aging.historyMs()).toBe(60_000);
      const old = event('exchange.a.b.old');
      await aging.publish(old);
      now += 45_000;
      const recent = event('exchange.a.b.recent');
      await aging.publish(recent);
      now += 30_000; // old is 75 s old, recent 30 s
      const late = collector();
      await aging.subscribe({ durable: 'late', subjects: ['exchange.>'], handler: late.handler });
      await late.until(1);
      await new Promise((r) => setImmediate(r));
      expect(late.seen.map((x) => x.id)).toEqual([recent.id]);
      // The forgotten id is no longer deduplicated (JetStream's window is shorter still).
      await aging.publish(old);
      await late.until(2);
      expect(late.seen.map((x) => x.id)).toEqual([recent.id, old.id]);
    } finally {
      await aging.close();
    }
  });

  it('keeps events for ever without maxAgeMs (or with 0): its history is unbounded in time', async () => {
    expect(await bus.historyMs()).toBe(Infinity);
    const zero = new InProcessEventBus({ logger: testLogger, maxAgeMs: 0 });
    expect(await zero.historyMs()).toBe(Infinity);
    await zero.close();
  });

  it('listen: every listener gets each live matching event once, no history; a failing listener loses only its own copy', async () => {
    await bus.publish(event('exchange.identity.agent.frozen')); // before listening: never delivered
    const a = collector();
    const b = collector();
    const failing = await bus.listen({ subjects: ['exchange.identity.agent.*'], handler: async () => Promise.reject(new Error('boom')) });
    const subA = await bus.listen({ subjects: ['exchange.identity.agent.*'], handler: a.handler });
    await bus.listen({ subjects: ['exchange.identity.agent.*'], handler: b.handler });
    const live = event('exchange.identity.agent.unfrozen');
    await bus.publish(live);
    await bus.publish(live); // a duplicate id is dropped, as for durables
    await bus.publish(event('exchange.market.contract.created'));
    await Promise.all([a.until(1), b.until(1)]);
    await subA.stop();
    await bus.publish(event('exchange.identity.agent.key_revoked'));
    await b.until(2);
    await failing.stop();
    expect(a.seen.map((e) => e.type)).toEqual(['exchange.identity.agent.unfrozen']);
    expect(b.seen.map((e) => e.type)).toEqual(['exchange.identity.agent.unfrozen', 'exchange.identity.agent.key_revoked']);
    expect(b.seen[0]).not.toBe(a.seen[0]);
  });

  it('hands subscribers a copy, not the publisher object', async () => {
    const c = collector();
    await bus.subscribe({ durable: 'copy', subjects: ['exchange.>'], handler: c.handler });
    const e = event('exchange.a.b.c', { n: 1 });
    await bus.publish(e);
    (e.data as { n: number }).n = 2;
    await c.until(1);
    expect(c.seen[0].data).toEqual({ n: 1 });
  });
});
