import { workflowsV1 } from '@exchange/proto';
import { asAgent, operator, stageSpec, startRunsHarness, type RunsHarness } from './support/runs-harness';

// Crash mid-stage: the market created the shard contracts but the service stopped before storing
// their ids (the engine's crash point throws right after each CreateContract answer). Restarted on
// the same database, the start-up recovery re-posts with the same idempotency keys: the market
// answers the contracts it already has, so each shard has exactly one contract, and the run finishes.

jest.setTimeout(60_000);

const crash = { afterContractPosted: async () => Promise.reject(new Error('process killed after CreateContract')) };
let h: RunsHarness;
beforeEach(async () => {
  h = await startRunsHarness('wf_recovery', { hooks: crash });
});
afterEach(async () => h?.close());

const TS = workflowsV1.TaskStatus;
const tasksOf = async (runId: string) => (await h.client.listTasks({ actor: operator, workflowRunId: runId, page: { limit: 200, cursor: '' } })).tasks;
const postedEvents = async (runId: string) =>
  (await h.sql.query<{ task_id: string }>("SELECT task_id FROM task_events WHERE workflow_run_id = $1 AND type = 'task.posted'", [runId])).rows.map((r) => r.task_id);

async function createRun(owner: string) {
  const res = await h.client.createRun({
    actor: asAgent(owner),
    ownerAgentId: owner,
    template: 'crash',
    stages: [stageSpec('first', 3, '2'), stageSpec('second', 2, '2')],
    inputRefs: [],
    maxShardAttempts: 0,
    idempotencyKey: '',
  });
  return res.run!.workflowRunId;
}

async function finish(runId: string) {
  for (const stage of ['first', 'second']) {
    const n = stage === 'first' ? 3 : 2;
    await h.until(async () => (await tasksOf(runId)).filter((t) => t.stage === stage && t.status === TS.TASK_STATUS_OPEN).length === n);
    for (let shard = 0; shard < n; shard++) await h.market.complete(h.market.shard(runId, stage, shard).contractId, '1', [`${stage}-${shard}`]);
  }
  return h.until(async () => {
    const run = (await h.client.getRun({ actor: operator, workflowRunId: runId })).run!;
    return run.status === workflowsV1.RunStatus.RUN_STATUS_COMPLETED ? run : null;
  });
}

it('re-posts after a restart without creating a second contract, and the run finishes', async () => {
  h.market.publishOnCreate = false; // the market's created events are late: only the re-post can tell the ids
  const owner = h.newOwner('100');
  const runId = await createRun(owner);
  expect(h.market.ofStage(runId, 'first')).toHaveLength(3);
  expect((await tasksOf(runId)).map((t) => [t.status, t.contractId])).toEqual(Array.from({ length: 3 }, () => [TS.TASK_STATUS_POSTING, undefined]));

  await h.restart();
  const tasks = await h.until(async () => {
    const list = await tasksOf(runId);
    return list.every((t) => t.status === TS.TASK_STATUS_OPEN) ? list : null;
  });
  expect(h.market.fake.calls.filter((c) => c.method === 'createContract')).toHaveLength(6);
  expect(h.market.ofStage(runId, 'first')).toHaveLength(3);
  expect(new Set(tasks.map((t) => t.contractId))).toEqual(new Set(h.market.ofStage(runId, 'first').map((c) => c.contractId)));

  h.market.publishOnCreate = true;
  const run = await finish(runId);
  expect(run.spent!.amount).toBe('5');
  // Exactly one contract per shard attempt, one task.posted per task.
  expect(h.market.contracts().filter((c) => c.labels.workflow_run_id === runId)).toHaveLength(5);
  const posted = await postedEvents(runId);
  expect(new Set(posted).size).toBe(posted.length);
  expect(posted).toHaveLength(5);
});

it('takes the contract id from the market event when the answer was lost', async () => {
  const owner = h.newOwner('100');
  const runId = await createRun(owner);
  // The created events name the contracts by their labels: the tasks open without the answers.
  await h.until(async () => (await tasksOf(runId)).every((t) => t.status === TS.TASK_STATUS_OPEN));
  await h.restart();
  expect(await h.service.recover()).toBe(0);
  expect(h.market.ofStage(runId, 'first')).toHaveLength(3);
  const run = await finish(runId);
  expect(run.outputRefs).toEqual(['second-0', 'second-1']);
  const posted = await postedEvents(runId);
  expect(posted).toHaveLength(5);
});
