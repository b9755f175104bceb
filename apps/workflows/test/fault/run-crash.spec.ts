import { errorInfoFromGrpc } from '@exchange/platform';
import { workflowsV1 } from '@exchange/proto';
import { describeWithNats } from '@exchange/testing';
import { status } from '@grpc/grpc-js';
import { FAULT_POINTS, type FaultPoint } from '../../src/config';
import { asAgent, operator, stageSpec, type WorkflowsClient } from '../support/runs-harness';
import { startProcessRig, type ProcessRig, type WorkflowsChild } from './support/process-rig';

// Workflows runs as its own process (tsx apps/workflows/src/main.ts) with WORKFLOWS_FAULT_INJECTION:
// it SIGKILLs itself mid-stage — after_stage_commit: the stage's tasks committed as posting, no
// contract posted; after_first_post: the market answered a CreateContract, its id not stored.
// Restarted without the fault, its start-up recovery re-posts with the same idempotency keys: the
// market fake answers the contracts it already has, so every shard has exactly one contract, and
// the run finishes from the market's events over NATS.

jest.setTimeout(120_000);

const TS = workflowsV1.TaskStatus;

describeWithNats('workflows killed mid-stage (SIGKILL) and restarted', (natsUrl) => {
  let rig: ProcessRig;
  beforeAll(async () => {
    rig = await startProcessRig('wf_kill', natsUrl);
  });
  afterAll(async () => {
    await rig?.close();
  });

  interface TaskRow {
    stage_name: string;
    shard: number;
    attempt: number;
    status: string;
    contract_id: string | null;
  }
  const storedTasks = async (runId: string, stage: string) =>
    (
      await rig.sql.query<TaskRow>('SELECT stage_name, shard, attempt, status, contract_id FROM workflow_tasks WHERE workflow_run_id = $1 AND stage_name = $2 ORDER BY shard, attempt', [
        runId,
        stage,
      ])
    ).rows;
  const answersOf = (runId: string, stage: string) => rig.market.answers().filter((a) => a.labels.workflow_run_id === runId && a.labels.stage === stage);
  const createRequest = (owner: string, stages: workflowsV1.StageSpec[], key: string): workflowsV1.CreateRunRequest => ({
    actor: asAgent(owner),
    ownerAgentId: owner,
    template: 'kill',
    stages,
    inputRefs: [],
    maxShardAttempts: 0,
    idempotencyKey: key,
  });

  /** The call the fault cut fails UNAVAILABLE and the process is gone on its own. */
  async function cut(child: WorkflowsChild, call?: Promise<unknown>): Promise<void> {
    if (call) {
      const err = await call.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).not.toBeNull();
      expect(errorInfoFromGrpc(err).grpcCode).toBe(status.UNAVAILABLE);
    }
    await rig.died(child);
  }

  /** What the crash left: the stage's tasks posting without a contract id; the market's contracts so far. */
  async function expectCutMidStage(fault: FaultPoint, runId: string, stage: string, shards: number): Promise<void> {
    const rows = await storedTasks(runId, stage);
    expect(rows.map((r) => [r.shard, r.attempt, r.status, r.contract_id])).toEqual(Array.from({ length: shards }, (_, s) => [s, 1, 'posting', null]));
    const created = answersOf(runId, stage);
    if (fault === 'after_stage_commit') expect(created).toHaveLength(0);
    else expect(created.length).toBeGreaterThanOrEqual(1); // the first answer killed it; another call may have been in flight
    expect(created.every((a) => !a.replayed)).toBe(true);
  }

  /** After the restart: one contract per shard (new answers), the rest replays of the same keys; tasks open on them. */
  async function expectOneContractPerShard(fault: FaultPoint, client: WorkflowsClient, runId: string, stage: string, shards: number): Promise<void> {
    const tasks = (await client.listTasks({ actor: operator, workflowRunId: runId, stage, status: TS.TASK_STATUS_OPEN, page: { limit: 50, cursor: '' } })).tasks;
    expect(tasks.map((t) => t.shard).sort()).toEqual(Array.from({ length: shards }, (_, s) => s));
    const answers = answersOf(runId, stage);
    const fresh = answers.filter((a) => !a.replayed);
    expect(fresh.map((a) => Number(a.labels.shard)).sort()).toEqual(Array.from({ length: shards }, (_, s) => s));
    expect(new Set(answers.map((a) => a.idempotencyKey)).size).toBe(shards);
    // after_first_post: the answer the crash lost is asked again with its key and replayed.
    const replays = answers.filter((a) => a.replayed);
    if (fault === 'after_first_post') expect(replays.length).toBeGreaterThanOrEqual(1);
    else expect(replays).toHaveLength(0);
    for (const r of replays) expect(fresh.find((a) => a.idempotencyKey === r.idempotencyKey)?.contractId).toBe(r.contractId);
    expect(new Set(tasks.map((t) => t.contractId))).toEqual(new Set(fresh.map((a) => a.contractId)));
    expect(rig.market.ofStage(runId, stage)).toHaveLength(shards);
  }

  async function completeStage(runId: string, stage: string, shards: number): Promise<void> {
    for (let shard = 0; shard < shards; shard++) await rig.market.complete(rig.market.shard(runId, stage, shard).contractId, '1', [`${stage}-${shard}`]);
  }

  async function completedRun(client: WorkflowsClient, runId: string): Promise<workflowsV1.Run> {
    return rig.until(async () => {
      const run = (await client.getRun({ actor: operator, workflowRunId: runId })).run!;
      return run.status === workflowsV1.RunStatus.RUN_STATUS_COMPLETED ? run : null;
    }, 60_000);
  }

  async function expectPostedOnce(runId: string, tasks: number): Promise<void> {
    const { rows } = await rig.sql.query<{ task_id: string }>("SELECT task_id FROM task_events WHERE workflow_run_id = $1 AND type = 'task.posted'", [runId]);
    expect(rows).toHaveLength(tasks);
    expect(new Set(rows.map((r) => r.task_id)).size).toBe(tasks);
  }

  it.each(FAULT_POINTS.map((p) => [p]))('%s in CreateRun (1 stage × 2 shards): the restart posts each shard once and the run completes', async (fault) => {
    const owner = rig.newOwner('100');
    const request = createRequest(owner, [stageSpec('only', 2, '3')], `kill-${fault}-${owner}`);
    // No created events: the contract ids can come only from CreateContract answers.
    rig.market.publishOnCreate = false;
    const armed = await rig.spawn({ WORKFLOWS_FAULT_INJECTION: fault });
    await cut(armed, armed.client.createRun(request));
    const { rows } = await rig.sql.query<{ workflow_run_id: string; status: string }>('SELECT workflow_run_id, status FROM workflow_runs WHERE owner_agent_id = $1', [owner]);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('running');
    const runId = rows[0].workflow_run_id;
    await expectCutMidStage(fault, runId, 'only', 2);

    rig.market.publishOnCreate = true;
    const restarted = await rig.spawn();
    try {
      // The start-up recovery round ran before SERVING.
      await expectOneContractPerShard(fault, restarted.client, runId, 'only', 2);
      // The owner's retry of the cut call answers the same run and posts nothing more.
      const again = await restarted.client.createRun(request);
      expect(again.run!.workflowRunId).toBe(runId);
      expect(rig.market.ofStage(runId, 'only')).toHaveLength(2);

      await completeStage(runId, 'only', 2);
      const run = await completedRun(restarted.client, runId);
      expect(run.spent!.amount).toBe('2');
      expect(run.outputRefs).toEqual(['only-0', 'only-1']);
      expect(rig.market.contracts().filter((c) => c.labels.workflow_run_id === runId)).toHaveLength(2);
      await expectPostedOnce(runId, 2);
    } finally {
      await restarted.stop();
    }
  });

  it.each(FAULT_POINTS.map((p) => [p]))('%s when stage 2 starts from a settled event (2 stages × 2 shards): the restart posts it once and the run completes', async (fault) => {
    const owner = rig.newOwner('100');
    rig.market.publishOnCreate = true;
    const plain = await rig.spawn();
    const runId = (await plain.client.createRun(createRequest(owner, [stageSpec('first', 2, '3'), stageSpec('second', 2, '3')], ''))).run!.workflowRunId;
    await rig.until(async () => (await storedTasks(runId, 'first')).every((t) => t.status === 'open'));
    await plain.stop();

    // Armed, the child consumes the first stage's settlements; the last one starts stage 2 and the crash cuts it.
    rig.market.publishOnCreate = false;
    const armed = await rig.spawn({ WORKFLOWS_FAULT_INJECTION: fault });
    await completeStage(runId, 'first', 2);
    await cut(armed);
    expect((await storedTasks(runId, 'first')).map((t) => t.status)).toEqual(['settled', 'settled']);
    await expectCutMidStage(fault, runId, 'second', 2);

    rig.market.publishOnCreate = true;
    const restarted = await rig.spawn();
    try {
      await expectOneContractPerShard(fault, restarted.client, runId, 'second', 2);
      for (const c of rig.market.ofStage(runId, 'second')) expect(c.inputRefs).toEqual(['first-0', 'first-1']);

      await completeStage(runId, 'second', 2);
      const run = await completedRun(restarted.client, runId);
      expect(run.spent!.amount).toBe('4');
      expect(run.outputRefs).toEqual(['second-0', 'second-1']);
      expect(rig.market.contracts().filter((c) => c.labels.workflow_run_id === runId)).toHaveLength(4);
      await expectPostedOnce(runId, 4);
    } finally {
      await restarted.stop();
    }
  });
});
