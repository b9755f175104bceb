import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { enqueueEvent, InProcessEventBus, newEvent, OUTBOX_SQL, pgSqlExecutor, type EventEnvelope } from '@exchange/events';
import { createHealthClient, type Logger } from '@exchange/platform';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';
import { ServiceHost, type ServiceBaseConfig } from '../src';

const SERVICE = 'exchange.test.v1.HostedService';

function migrationsWith(sql: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'service-host-'));
  mkdirSync(join(dir, '20260101000000_init'));
  writeFileSync(join(dir, '20260101000000_init', 'migration.sql'), sql);
  return dir;
}

describe('ServiceHost', () => {
  let db: TestDatabase;
  let migrationsDir: string;
  const logger: Logger = testLogger;

  beforeAll(async () => {
    db = await createTestDatabase('service_host');
    migrationsDir = migrationsWith(`${OUTBOX_SQL}\nCREATE TABLE things (id int PRIMARY KEY);`);
  });
  afterAll(async () => {
    await db.drop();
    rmSync(migrationsDir, { recursive: true, force: true });
  });

  const config = (retentionHours = 24, eventsHours = 168): ServiceBaseConfig => ({
    GRPC_PORT: 0,
    GRPC_HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    EXCHANGE_ENV: 'sandbox',
    LOG_LEVEL: 'silent',
    OUTBOX_RETENTION_HOURS: retentionHours,
    EVENTS_RETENTION_HOURS: eventsHours,
  });

  it('serves only after migrations, hooks, relay and workers, in that order', async () => {
    const bus = new InProcessEventBus({ logger });
    const host = new ServiceHost({ name: 'hosted', grpcServiceName: SERVICE, config: config(), logger, bus, migrationsDir });
    const pool = host.pool({ max: 2 });
    const order: string[] = [];
    let rounds = 0;
    host.periodic('ticker', 5, async () => {
      rounds += 1;
      return 0;
    });
    const received: EventEnvelope[] = [];
    await bus.subscribe({ durable: 'probe', subjects: ['exchange.test.>'], handler: async (e) => void received.push(e) });
    let port = 0;

    const running = await host.start({
      register: () => order.push('register'),
      outbox: pool,
      afterMigrations: async () => {
        order.push('afterMigrations');
        // Migrations ran before this hook; the bus and relay do not exist yet.
        const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM things');
        expect(rows[0].n).toBe('0');
      },
      beforeServing: async ({ bus: given }) => {
        order.push('beforeServing');
        expect(given).toBe(bus);
        expect(rounds).toBe(0); // workers start after this hook
        const client = await pool.connect();
        try {
          await enqueueEvent(pgSqlExecutor(client), newEvent({ type: 'exchange.test.thing.created', source: 'hosted', subjectId: 't1', data: {} }));
        } finally {
          client.release();
        }
        host.notify();
      },
    });
    port = running.grpcPort;
    expect(order).toEqual(['register', 'afterMigrations', 'beforeServing']);
    const health = createHealthClient(`127.0.0.1:${port}`, { defaultDeadlineMs: 2000 });
    try {
      expect(await health.check()).toBe('SERVING');
      expect(await health.check(SERVICE)).toBe('SERVING');
      await waitFor(() => received.length === 1 && rounds > 0);
      expect(received[0].type).toBe('exchange.test.thing.created');

      await running.stop();
      await expect(health.check('', { deadlineMs: 500 })).rejects.toThrow();
      expect(pool.ended).toBe(true);
      // The launcher's bus belongs to the launcher: the host leaves it open.
      await expect(bus.publish(newEvent({ type: 'exchange.test.thing.updated', source: 'hosted', subjectId: 't1', data: {} }))).resolves.toBeUndefined();
    } finally {
      health.close();
      await running.stop();
      await bus.close();
    }
  });

  it.each([
    [1, ['recent', 'unpublished']],
    [0, ['old', 'recent', 'unpublished']],
  ])('with OUTBOX_RETENTION_HOURS=%s, deletes the published outbox rows older than that (0: none)', async (hours, kept) => {
    const host = new ServiceHost({ name: 'hosted', grpcServiceName: SERVICE, config: config(hours), logger, migrationsDir, pruneIntervalMs: 10 });
    const pool = host.pool({ max: 2 });
    const running = await host.start({ register: () => undefined, outbox: pool });
    try {
      await pool.query('DELETE FROM outbox_events');
      // Rows as the relay leaves them: published two hours ago, a minute ago, not yet.
      const rows: Array<[string, string | null]> = [['old', '2 hours'], ['recent', '1 minute'], ['unpublished', null]];
      for (const [id, age] of rows) {
        await pool.query(`INSERT INTO outbox_events (id, type, payload, published_at) VALUES ($1, 'exchange.test.thing.created', '{}', now() - $2::interval)`, [id, age]);
      }
      const ids = async () => (await pool.query<{ id: string }>('SELECT id FROM outbox_events ORDER BY id')).rows.map((r) => r.id);
      expect(await settled(ids, kept.length)).toEqual(kept);
    } finally {
      await running.stop();
    }
  });

  it.each([
    // The bus's history (EVENTS_RETENTION_HOURS) plus the hour of clock-skew margin: 3 h here.
    [2, ['fresh', 'past-history']],
    // A bus that keeps events for ever: every record may still be needed.
    [0, ['ancient', 'fresh', 'past-history']],
  ])('with EVENTS_RETENTION_HOURS=%s, deletes processed-event records the bus can no longer redeliver (0: none)', async (hours, kept) => {
    const host = new ServiceHost({ name: 'hosted', grpcServiceName: SERVICE, config: config(24, hours), logger, migrationsDir, pruneIntervalMs: 10 });
    const pool = host.pool({ max: 2 });
    const running = await host.start({ register: () => undefined, outbox: pool });
    try {
      // The bus the host made has the configured history.
      expect(await running.bus.historyMs()).toBe(hours > 0 ? hours * 3_600_000 : Infinity);
      await pool.query('DELETE FROM processed_events');
      await processedEvents(pool, [['ancient', '4 hours'], ['past-history', '150 minutes'], ['fresh', '1 second']]);
      expect(await settled(() => processedIds(pool), kept.length)).toEqual(kept);
    } finally {
      await running.stop();
    }
  });

  it("prunes by the bus's history as it is, not by its own EVENTS_RETENTION_HOURS (the launcher's bus, a stream another service set)", async () => {
    const bus = new InProcessEventBus({ logger, maxAgeMs: 30 * 60_000 }); // half an hour, against the config's 168 h
    const host = new ServiceHost({ name: 'hosted', grpcServiceName: SERVICE, config: config(24, 168), logger, bus, migrationsDir, pruneIntervalMs: 10 });
    const pool = host.pool({ max: 2 });
    const running = await host.start({ register: () => undefined, outbox: pool });
    try {
      await pool.query('DELETE FROM processed_events');
      // Past half an hour plus the hour's margin, and within it.
      await processedEvents(pool, [['gone', '2 hours'], ['kept', '80 minutes']]);
      expect(await settled(() => processedIds(pool), 1)).toEqual(['kept']);
    } finally {
      await running.stop();
      await bus.close();
    }
  });

  it('health is NOT_SERVING while starting', async () => {
    const host = new ServiceHost({ name: 'hosted', grpcServiceName: SERVICE, config: config(), logger, migrationsDir });
    const pool = host.pool({ max: 1 });
    let seen: string | undefined;
    const running = await host.start({
      register: () => undefined,
      outbox: pool,
      afterMigrations: async () => {
        const port = (host as unknown as { grpc: { port: number } }).grpc.port;
        const health = createHealthClient(`127.0.0.1:${port}`);
        try {
          seen = await health.check(SERVICE);
        } finally {
          health.close();
        }
      },
    });
    await running.stop();
    expect(seen).toBe('NOT_SERVING');
  });

  it('stops in reverse: gRPC, workers, stop hooks, relay, own bus, then last-opened resource first; every step runs', async () => {
    const host = new ServiceHost({ name: 'hosted', grpcServiceName: SERVICE, config: config(), logger, migrationsDir });
    const pool = host.pool({ max: 1 });
    const order: string[] = [];
    host.onClose('first', () => void order.push('close first'));
    host.onClose('second', () => {
      order.push('close second');
      throw new Error('second failed');
    });
    host.onStop('consumer', () => void order.push('stop consumer'));
    const running = await host.start({ register: () => undefined, outbox: pool });
    await expect(running.stop()).rejects.toThrow('second failed');
    // A failing step does not keep the next ones from running; the pool (opened first) closes last.
    expect(order).toEqual(['stop consumer', 'close second', 'close first']);
    expect(pool.ended).toBe(true);
    expect(running.stop()).toBe(running.stop()); // one stop, shared
    await running.stop().catch(() => undefined);
  });

  it('a failed start closes everything it opened and rethrows', async () => {
    const host = new ServiceHost({ name: 'hosted', grpcServiceName: SERVICE, config: config(), logger, migrationsDir });
    const pool = host.pool({ max: 1 });
    let port = 0;
    const closed: string[] = [];
    host.onClose('store', () => void closed.push('store'));
    await expect(
      host.start({
        register: () => undefined,
        outbox: pool,
        afterMigrations: async () => {
          port = (host as unknown as { grpc: { port: number } }).grpc.port;
          throw new Error('store unreachable');
        },
      }),
    ).rejects.toThrow('store unreachable');
    expect(closed).toEqual(['store']);
    expect(pool.ended).toBe(true);
    const health = createHealthClient(`127.0.0.1:${port}`);
    try {
      await expect(health.check('', { deadlineMs: 500 })).rejects.toThrow();
    } finally {
      health.close();
    }
    await expect(host.start({ register: () => undefined, outbox: pool })).rejects.toThrow(/called twice/);
  });

  it('a migration failure stops the start', async () => {
    const broken = migrationsWith('CREATE TABLE broken (');
    const fresh = await createTestDatabase('service_host_broken');
    const host = new ServiceHost({ name: 'hosted', grpcServiceName: SERVICE, config: { ...config(), DATABASE_URL: fresh.url }, logger, migrationsDir: broken });
    const pool = host.pool({ max: 1 });
    try {
      await expect(host.start({ register: () => undefined, outbox: pool })).rejects.toThrow(/Migration 20260101000000_init failed/);
      expect(pool.ended).toBe(true);
    } finally {
      rmSync(broken, { recursive: true, force: true });
      await fresh.drop();
    }
  });
});

async function waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The ids once `count` are left: some 20 rounds of the 10 ms prune workers, then as long as the deletion takes on a busy machine (10 s at most). */
async function settled(ids: () => Promise<string[]>, count: number): Promise<string[]> {
  await new Promise((r) => setTimeout(r, 200));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await ids()).length !== count) await new Promise((r) => setTimeout(r, 10));
  return ids();
}

/** Consumer `probe`'s records of the given events, processed the given interval ago. */
async function processedEvents(pool: pg.Pool, rows: Array<[string, string]>): Promise<void> {
  for (const [id, age] of rows) {
    await pool.query(`INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ('probe', $1, now() - $2::interval)`, [id, age]);
  }
}

async function processedIds(pool: pg.Pool): Promise<string[]> {
  return (await pool.query<{ event_id: string }>('SELECT event_id FROM processed_events ORDER BY event_id')).rows.map((r) => r.event_id);
}
