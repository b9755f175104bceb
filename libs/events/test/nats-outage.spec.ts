import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePortRange } from '@exchange/db';
import { describeWithNats, startNatsServer, testLogger, type NatsServerProcess } from '@exchange/testing';
import { createEventBus, idempotentConsumer, OutboxRelay, type EventBus } from '../src';
import { createOutboxDatabase, enqueueInTransaction, sideEffects, testEvent, unpublishedCount } from './outbox-fixture';
import { waitFor } from './wait-for';

// A private nats-server (not the shared one) so this test can take it away and bring it back.
describeWithNats('outbox relay across a NATS outage (own nats-server)', () => {
  jest.setTimeout(90_000);
  let storeDir: string;
  let port: number;
  let server: NatsServerProcess;
  let bus: EventBus;
  let fixture: Awaited<ReturnType<typeof createOutboxDatabase>>;
  let relay: OutboxRelay;

  beforeAll(async () => {
    storeDir = mkdtempSync(join(tmpdir(), 'nats-outage-'));
    port = await findFreePortRange(1); // below the ephemeral range: still free when the process restarts on it
    server = await startNatsServer(port, storeDir);
    fixture = await createOutboxDatabase('nats_outage');
    bus = await createEventBus({ natsUrl: server.url, logger: testLogger, publishTimeoutMs: 1_000 });
    relay = new OutboxRelay({ pool: fixture.pool, bus, logger: testLogger, pollIntervalMs: 50, maxBackoffMs: 500 });
  });
  afterAll(async () => {
    await relay?.stop();
    await bus?.close();
    await server?.stop();
    await fixture?.close();
    rmSync(storeDir, { recursive: true, force: true });
  });

  it('delivers an event committed while NATS was down once it is back', async () => {
    await bus.subscribe({
      durable: 'outage',
      subjects: ['exchange.>'],
      handler: idempotentConsumer(fixture.pool, 'outage', async (event, client) => {
        await client.query('INSERT INTO side_effects (event_id, consumer) VALUES ($1, $2)', [event.id, 'outage']);
      }),
    });
    relay.start();
    const before = testEvent('exchange', 'before');
    await enqueueInTransaction(fixture.pool, before);
    relay.notify();
    await waitFor('the event before the outage', async () => (await sideEffects(fixture.pool, 'outage')).includes(before.id));

    await server.stop();
    const during = testEvent('exchange', 'during');
    await enqueueInTransaction(fixture.pool, during);
    relay.notify();
    await waitFor('a failed publish during the outage', () => relay.status().lastError !== null);
    expect(await unpublishedCount(fixture.pool)).toBe(1);

    server = await startNatsServer(port, storeDir);
    await waitFor('the event committed during the outage', async () => (await sideEffects(fixture.pool, 'outage')).includes(during.id), 60_000);
    expect((await sideEffects(fixture.pool, 'outage')).sort()).toEqual([before.id, during.id].sort());
    await waitFor('the outbox to be marked', async () => (await unpublishedCount(fixture.pool)) === 0);
  });
});
