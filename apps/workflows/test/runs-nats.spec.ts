import { createNatsEventBus, type NatsEventBus } from '@exchange/events';
import { uuidv7 } from '@exchange/platform';
import { workflowsV1 } from '@exchange/proto';
import { deleteDurableConsumer, describeWithNats, testLogger } from '@exchange/testing';
import { asAgent, operator, stageSpec, startRunsHarness, type RunsHarness } from './support/runs-harness';

// The market consumer as a durable JetStream consumer: the market's contract events travel through
// a real NATS server, the run follows them; events published while the service is stopped are
// delivered to the durable when it comes back.

jest.setTimeout(90_000);

describeWithNats('market events over NATS JetStream', (natsUrl) => {
  let bus: NatsEventBus;
  let h: RunsHarness;
  // Its own durable: other suites' workflows services on this server keep theirs.
  const durable = `workflows-market-test-${uuidv7().slice(-12)}`;
  beforeAll(async () => {
    bus = await createNatsEventBus({ natsUrl, logger: testLogger, connectionName: 'workflows-runs-test' });
    h = await startRunsHarness('wf_nats', { bus, marketDurable: durable });
  });
  afterAll(async () => {
    await h?.close();
    await bus?.close();
    // The durable is this test's alone: removed so the server does not keep it forever.
    await deleteDurableConsumer(natsUrl, durable);
  });

  it('runs a stage from durable consumer deliveries, including those published while stopped', async () => {
    const owner = h.newOwner('100');
    const run = (await h.client.createRun({ actor: asAgent(owner), ownerAgentId: owner, template: 'nats', stages: [stageSpec('a', 2, '3')], inputRefs: [], maxShardAttempts: 0, idempotencyKey: '' })).run!;
    const [c0, c1] = h.market.ofStage(run.workflowRunId, 'a');
    await h.market.complete(c0.contractId, '3', ['x0']);
    await h.until(async () => (await h.client.getRun({ actor: operator, workflowRunId: run.workflowRunId })).run!.spent!.amount === '3', 30_000);

    // Stopped: JetStream keeps the durable's place; the events wait for it.
    await h.stop();
    await h.market.complete(c1.contractId, '2', ['x1']);
    await h.restart();
    const done = await h.until(async () => {
      const r = (await h.client.getRun({ actor: operator, workflowRunId: run.workflowRunId })).run!;
      return r.status === workflowsV1.RunStatus.RUN_STATUS_COMPLETED ? r : null;
    }, 30_000);
    expect(done.spent!.amount).toBe('5');
    expect(done.outputRefs).toEqual(['x0', 'x1']);
  });
});
