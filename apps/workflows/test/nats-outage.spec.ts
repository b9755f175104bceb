import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePortRange } from '@exchange/db';
import { createNatsEventBus, type NatsEventBus } from '@exchange/events';
import { uuidv7 } from '@exchange/platform';
import { workflowsV1 } from '@exchange/proto';
import { deleteDurableConsumer, describeWithNats, startNatsServer, testLogger, type NatsServerProcess } from '@exchange/testing';
import { HoldingBus } from './support/holding-bus';
import { asAgent, operator, stageSpec, startRunsHarness, type RunsHarness } from './support/runs-harness';

// Issue 17: subscriptions drop nothing across NATS outages. A private nats-server (not the shared
// one) is taken away mid-run and brought back on the same port and store: the subscription keeps
// working on PostgreSQL alone, the workflows outbox keeps what it could not publish, and the
// market's events (held as its outbox would) finish the run once NATS is back.

const RUN_STATUS = workflowsV1.RunStatus;

describeWithNats('workflows across a NATS outage (own nats-server)', () => {
  jest.setTimeout(240_000);
  const durable = `workflows-market-outage-${uuidv7().slice(-12)}`;
  let storeDir: string;
  let port: number;
  let server: NatsServerProcess;
  let serverUp = false;
  let nats: NatsEventBus;
  let bus: HoldingBus;
  let h: RunsHarness;

  beforeAll(async () => {
    storeDir = mkdtempSync(join(tmpdir(), 'wf-nats-outage-'));
    port = await findFreePortRange(1); // below the ephemeral range: still free when the server restarts on it
    server = await startNatsServer(port, storeDir);
    serverUp = true;
    nats = await createNatsEventBus({ natsUrl: server.url, logger: testLogger, publishTimeoutMs: 1_000, connectionName: 'workflows-outage-test' });
    bus = new HoldingBus(nats, (event) => event.type.startsWith('exchange.market.'));
    h = await startRunsHarness('wf_outage', { bus, marketDurable: durable });
  });
  afterAll(async () => {
    // A failure mid-outage: bring NATS back so the service, its relay and the bus stop cleanly.
    if (server && !serverUp) server = await startNatsServer(port, storeDir).catch(() => server);
    await h?.close();
    if (server) await deleteDurableConsumer(server.url, durable);
    await nats?.close();
    await server?.stop();
    if (storeDir) rmSync(storeDir, { recursive: true, force: true });
  });

  const unpublished = async (like = '%'): Promise<number> =>
    (await h.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL AND payload::text LIKE $1', [like])).rows[0].n;
  const logged = async (runId: string): Promise<{ event_id: string; type: string }[]> =>
    (await h.sql.query<{ event_id: string; type: string }>('SELECT event_id, type FROM task_events WHERE workflow_run_id = $1 ORDER BY seq', [runId])).rows;

  /** Lists and acknowledges until nothing is left; every event is handed out once (lease 300 s). */
  const drain = async (owner: string, subscriptionId: string): Promise<workflowsV1.TaskEvent[]> => {
    const out: workflowsV1.TaskEvent[] = [];
    for (;;) {
      const page = await h.client.listSubscriptionEvents({ actor: asAgent(owner), subscriptionId, limit: 200 });
      if (page.events.length === 0) {
        expect(page.subscription!.pendingCount).toBe('0');
        return out;
      }
      const done = await h.client.consumeSubscriptionEvents({ actor: asAgent(owner), subscriptionId, eventIds: page.events.map((e) => e.eventId) });
      expect(done.acknowledged).toBe(page.events.length);
      out.push(...page.events);
    }
  };

  it('keeps the subscription and the outbox through the outage and finishes the run when NATS is back', async () => {
    const owner = h.newOwner('100');
    const run = (await h.client.createRun({ actor: asAgent(owner), ownerAgentId: owner, template: 'outage', stages: [stageSpec('a', 2, '3')], inputRefs: [], maxShardAttempts: 0, idempotencyKey: '' })).run!;
    const runId = run.workflowRunId;
    const sub = (
      await h.client.createSubscription(workflowsV1.CreateSubscriptionRequest.fromPartial({ actor: asAgent(owner), filters: { workflowRunId: runId, eventTypes: [] }, leaseSeconds: 300 }))
    ).subscription!;
    const [c0, c1] = h.market.ofStage(runId, 'a');

    await h.market.complete(c0.contractId, '3', ['x0']);
    await h.until(async () => (await logged(runId)).some((e) => e.type === 'task.settled'), 60_000);
    // The outbox caught up first, so whatever is unpublished later was written during the outage.
    await h.until(async () => (await unpublished()) === 0, 60_000);

    // ---- NATS down ----
    bus.hold();
    await server.stop();
    serverUp = false;

    // The subscription lives in PostgreSQL: it lists and acknowledges without NATS.
    const seen = await drain(owner, sub.subscriptionId);
    expect(seen.map((e) => e.eventId)).toEqual((await logged(runId)).map((e) => e.event_id));
    expect(seen.filter((e) => e.type === 'task.settled').map((e) => e.shard)).toEqual([0]);

    // The market settles shard 1, but its events cannot reach NATS: its outbox keeps them.
    await h.market.complete(c1.contractId, '2', ['x1']);
    expect(bus.heldEvents().map((e) => e.type)).toEqual(['exchange.market.contract.awarded', 'exchange.market.contract.delivered', 'exchange.market.contract.settled']);

    // A workflows change during the outage (a second run posts its stage): its task events wait in the outbox.
    const other = (await h.client.createRun({ actor: asAgent(owner), ownerAgentId: owner, template: 'outage', stages: [stageSpec('b', 1, '1')], inputRefs: [], maxShardAttempts: 0, idempotencyKey: '' })).run!;
    expect((await logged(other.workflowRunId)).length).toBeGreaterThan(0);
    expect(await unpublished(`%${other.workflowRunId}%`)).toBeGreaterThan(0);
    const stalled = (await h.client.getRun({ actor: operator, workflowRunId: runId })).run!;
    expect(stalled.status).toBe(RUN_STATUS.RUN_STATUS_RUNNING);
    expect(stalled.spent!.amount).toBe('3');

    // ---- NATS back, same port and store ----
    server = await startNatsServer(port, storeDir);
    serverUp = true;
    expect(await bus.release()).toBe(4); // shard 1's three events and the second run's contract.created

    const done = await h.until(async () => {
      const r = (await h.client.getRun({ actor: operator, workflowRunId: runId })).run!;
      return r.status === RUN_STATUS.RUN_STATUS_COMPLETED ? r : null;
    }, 60_000);
    expect(done.spent!.amount).toBe('5');
    expect(done.outputRefs).toEqual(['x0', 'x1']);

    // Every task event of the run, exactly once and in order: those read during the outage, then the rest.
    seen.push(...(await drain(owner, sub.subscriptionId)));
    const log = await logged(runId);
    expect(log.at(-1)!.type).toBe('run.completed');
    expect(seen.map((e) => e.eventId)).toEqual(log.map((e) => e.event_id));
    expect(seen.map((e) => e.type)).toEqual(log.map((e) => e.type));
    expect(seen.every((e) => e.deliveryCount === 1)).toBe(true);
    const seqs = seen.map((e) => BigInt(e.sequence));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i] > seqs[i - 1]).toBe(true);
    expect(seen.filter((e) => e.type === 'task.settled').map((e) => e.shard)).toEqual([0, 1]);

    // The workflows outbox drains: everything written during the outage reaches NATS.
    await h.until(async () => (await unpublished()) === 0, 60_000);
  });
});
