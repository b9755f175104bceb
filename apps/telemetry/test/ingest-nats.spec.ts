import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePortRange } from '@exchange/db';
import { OutboxRelay, createNatsEventBus, enqueueEvent, pgSqlExecutor, type EventEnvelope, type NatsEventBus, type Subscription } from '@exchange/events';
import { marketV1 } from '@exchange/proto';
import { describeWithNats, startNatsServer, testLogger, type NatsServerProcess } from '@exchange/testing';
import { startEventConsumer } from '../src/ingest/event-consumer.handlers';
import { contractEvent, newParties } from './ingest-fixtures';
import { allRecorded, migratedStore, until, type StoreDb } from './ingest-support';

// Issue 18: the event store catches up after a consumer restart and after a NATS outage with
// nothing lost or doubled. A private nats-server (a fresh stream, taken away and brought back on
// the same port and store); a producer database whose outbox relay publishes, as every service's does.

const C = marketV1.ContractStatus;

describeWithNats('telemetry event consumer on NATS (own nats-server)', () => {
  jest.setTimeout(180_000);
  const durable = 'telemetry-events';
  let storeDir: string;
  let port: number;
  let server: NatsServerProcess;
  let serverUp = false;
  let bus: NatsEventBus;
  let store: StoreDb;
  let producer: StoreDb;
  let relay: OutboxRelay;
  let sub: Subscription | undefined;

  beforeAll(async () => {
    storeDir = mkdtempSync(join(tmpdir(), 'telemetry-nats-'));
    port = await findFreePortRange(1); // below the ephemeral range: still free when the server restarts on it
    server = await startNatsServer(port, storeDir);
    serverUp = true;
    bus = await createNatsEventBus({ natsUrl: server.url, logger: testLogger, publishTimeoutMs: 1_000, connectionName: 'telemetry-nats-test' });
    store = await migratedStore('telemetry_nats');
    producer = await migratedStore('telemetry_nats_producer');
    relay = new OutboxRelay({ pool: producer.pool, bus, logger: testLogger, pollIntervalMs: 50, maxBackoffMs: 500 });
    relay.start();
  });
  afterAll(async () => {
    if (server && !serverUp) server = await startNatsServer(port, storeDir).catch(() => server);
    await sub?.stop();
    await relay?.stop();
    await bus?.close();
    await server?.stop();
    await store?.close();
    await producer?.close();
    if (storeDir) rmSync(storeDir, { recursive: true, force: true });
  });

  /** A producer's change: its events written to its outbox in one transaction, then the relay woken. */
  const produce = async (events: EventEnvelope[]): Promise<void> => {
    const client = await producer.pool.connect();
    try {
      await client.query('BEGIN');
      for (const e of events) await enqueueEvent(pgSqlExecutor(client), e);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    relay.notify();
  };
  const unpublished = async (): Promise<number> => (await producer.pool.query('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL')).rows[0].n;
  const lifecycle = (tag: string): EventEnvelope[] => {
    const p = newParties(tag);
    return [contractEvent(p, 'created'), contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1 }), contractEvent(p, 'settled', { status: C.CONTRACT_STATUS_SETTLED, minutes: 2 })];
  };
  const consume = () => startEventConsumer({ bus, pool: store.pool, logger: testLogger, notify: () => undefined, durable });
  const total = async (): Promise<{ rows: number; distinct: number }> =>
    (await store.pool.query('SELECT count(*)::int AS rows, count(DISTINCT event_id)::int AS distinct FROM events')).rows[0];

  it('catches up after a consumer restart and after an outage, nothing lost or doubled', async () => {
    sub = await consume();
    const a = lifecycle('a');
    await produce(a);
    await allRecorded(store.pool, a.map((e) => e.id));

    // Consumer away: the durable keeps its place in the stream.
    await sub.stop();
    sub = undefined;
    const b = lifecycle('b');
    await produce(b);
    await until(async () => (await unpublished()) === 0);
    sub = await consume();
    await allRecorded(store.pool, [...a, ...b].map((e) => e.id));

    // ---- NATS down: the producer's outbox keeps what it cannot publish ----
    await server.stop();
    serverUp = false;
    const c = lifecycle('c');
    await produce(c);
    await until(async () => relay.status().failedRounds > 0);
    expect(await unpublished()).toBe(c.length);

    // ---- NATS back on the same port and store ----
    server = await startNatsServer(port, storeDir);
    serverUp = true;
    await allRecorded(store.pool, [...a, ...b, ...c].map((e) => e.id), 90_000);
    await until(async () => (await unpublished()) === 0);
    expect(await total()).toEqual({ rows: 9, distinct: 9 });
    const settled = await store.pool.query("SELECT count(*)::int AS n FROM contract_facts WHERE status = 'settled'");
    expect(settled.rows[0].n).toBe(3);
  });
});
