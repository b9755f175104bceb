import { newEvent } from '@exchange/events';
import { marketV1, marketV1Events, workflowsV1 } from '@exchange/proto';
import { asAgent, failure, operator, stageSpec, startRunsHarness, type RunsHarness } from './support/runs-harness';

// The run engine end to end against PostgreSQL, the market fake and the in-process bus: a run goes
// through its stages as the market's contract events arrive.

jest.setTimeout(60_000);

let h: RunsHarness;
beforeAll(async () => {
  h = await startRunsHarness('wf_runs');
});
afterAll(async () => h?.close());

const RS = workflowsV1.RunStatus;
const getRun = async (id: string, actor = operator) => (await h.client.getRun({ actor, workflowRunId: id })).run!;
const eventsOf = async (runId: string) =>
  (await h.sql.query<{ type: string; stage: string | null; shard: number | null }>('SELECT type, stage, shard FROM task_events WHERE workflow_run_id = $1 ORDER BY seq', [runId])).rows;

async function createRun(owner: string, stages: workflowsV1.StageSpec[], over: Partial<workflowsV1.CreateRunRequest> = {}) {
  const res = await h.client.createRun({ actor: asAgent(owner), ownerAgentId: owner, template: 'pipeline', stages, inputRefs: ['sha256:seed'], maxShardAttempts: 0, idempotencyKey: '', ...over });
  return res.run!;
}

/** Completes every live shard of a stage, shard i with price `prices[i]` and artifact `<stage>-<i>`. */
async function completeStage(runId: string, stage: string, shards: number, prices: string[]) {
  await h.until(async () => h.market.ofStage(runId, stage).length >= shards);
  for (let i = 0; i < shards; i++) await h.market.complete(h.market.shard(runId, stage, i).contractId, prices[i], [`${stage}-${i}`]);
}

describe('a three-stage run', () => {
  it('posts each stage, chains outputs into inputs and completes with spent = Σ prices', async () => {
    const owner = h.newOwner('1000');
    const run = await createRun(owner, [stageSpec('crawl', 2), stageSpec('parse', 3, '5'), stageSpec('merge', 2, '20')]);
    expect(run.status).toBe(RS.RUN_STATUS_RUNNING);
    expect(run.budget).toEqual({ amount: '75', currency: 'CREDIT' });

    // Stage 0: one contract per shard, labelled, the owner as buyer, the run's inputs.
    const crawl = h.market.ofStage(run.workflowRunId, 'crawl');
    expect(crawl.map((c) => c.labels)).toEqual([0, 1].map((shard) => ({ workflow_run_id: run.workflowRunId, stage: 'crawl', shard: String(shard), attempt: '1' })));
    expect(crawl.every((c) => c.buyerId === owner && c.inputRefs.join() === 'sha256:seed')).toBe(true);
    // The shards are posted concurrently: which arrives last varies, so each post is checked.
    const keyOf = (c: { request: unknown }) => (c.request as { idempotencyKey: string }).idempotencyKey;
    const posts = h.market.fake.calls.filter((c) => c.method === 'createContract' && keyOf(c).startsWith(`workflow:${run.workflowRunId}:`));
    expect(posts.map(keyOf).sort()).toEqual([0, 1].map((shard) => `workflow:${run.workflowRunId}:0:${shard}:1`));
    for (const post of posts) expect(post.ctx).toMatchObject({ actor: 'operator:workflows', agentId: owner });

    await h.market.award(crawl[0].contractId, '7');
    await h.until(async () => (await getRun(run.workflowRunId)).committed!.amount === '7');

    await completeStage(run.workflowRunId, 'crawl', 2, ['7', '8']);
    await h.until(async () => h.market.ofStage(run.workflowRunId, 'parse').length === 3);
    expect(h.market.ofStage(run.workflowRunId, 'parse').every((c) => c.inputRefs.join() === 'crawl-0,crawl-1')).toBe(true);
    await completeStage(run.workflowRunId, 'parse', 3, ['1', '2', '3']);
    await h.until(async () => h.market.ofStage(run.workflowRunId, 'merge').length === 2);
    expect(h.market.ofStage(run.workflowRunId, 'merge')[0].inputRefs).toEqual(['parse-0', 'parse-1', 'parse-2']);
    await completeStage(run.workflowRunId, 'merge', 2, ['10', '0.5']);

    const done = await h.until(async () => {
      const r = await getRun(run.workflowRunId);
      return r.status === RS.RUN_STATUS_COMPLETED ? r : null;
    });
    expect(done.spent).toEqual({ amount: '31.5', currency: 'CREDIT' });
    expect(done.committed).toEqual({ amount: '0', currency: 'CREDIT' });
    expect(done.outputRefs).toEqual(['merge-0', 'merge-1']);
    expect(done.completedAt).toBeDefined();
    expect(done.stages.map((s) => [s.status, s.settledShards])).toEqual([
      [workflowsV1.StageStatus.STAGE_STATUS_COMPLETED, 2],
      [workflowsV1.StageStatus.STAGE_STATUS_COMPLETED, 3],
      [workflowsV1.StageStatus.STAGE_STATUS_COMPLETED, 2],
    ]);
    expect(done.stages[1].inputRefs).toEqual(['crawl-0', 'crawl-1']);

    // The task event log: run.started, then per stage stage.started, the postings, each shard's
    // award → delivery → settlement, stage.completed; run.completed last.
    const events = await eventsOf(run.workflowRunId);
    expect(events[0].type).toBe('run.started');
    expect(events.at(-1)!.type).toBe('run.completed');
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'task.posted')).toHaveLength(7);
    expect(types.filter((t) => t === 'task.settled')).toHaveLength(7);
    expect(types.filter((t) => t === 'stage.completed')).toHaveLength(3);
    for (const stage of ['crawl', 'parse', 'merge']) {
      const of = events.filter((e) => e.stage === stage).map((e) => e.type);
      expect(of[0]).toBe('stage.started');
      expect(of.at(-1)).toBe('stage.completed');
      const shard0 = events.filter((e) => e.stage === stage && e.shard === 0).map((e) => e.type);
      expect(shard0).toEqual(['task.posted', 'task.awarded', 'task.delivered', 'task.settled']);
    }
    // Each stage starts only after the previous one completed.
    expect(types.indexOf('stage.completed')).toBeLessThan(types.lastIndexOf('stage.started'));
    // Published as exchange.workflows.<type> through the outbox, same ids.
    const { rows } = await h.sql.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM outbox_events o JOIN task_events e ON e.event_id = o.id WHERE e.workflow_run_id = $1 AND o.type = 'exchange.workflows.' || e.type`,
      [run.workflowRunId],
    );
    expect(Number(rows[0].n)).toBe(events.length);
  });
});

describe('shard failures', () => {
  it('re-posts an expired shard as attempt 2, which settles', async () => {
    const owner = h.newOwner('100');
    const run = await createRun(owner, [stageSpec('only', 2)]);
    const [first, other] = h.market.ofStage(run.workflowRunId, 'only');
    await h.market.award(first.contractId, '4');
    await h.market.expire(first.contractId);
    const retry = await h.until(async () => h.market.ofStage(run.workflowRunId, 'only').find((c) => c.labels.shard === '0' && c.labels.attempt === '2'));
    expect(h.market.fake.lastCall<{ idempotencyKey: string }>('createContract').request.idempotencyKey).toBe(`workflow:${run.workflowRunId}:0:0:2`);
    await h.market.complete(retry.contractId, '6', ['a']);
    await h.market.complete(other.contractId, '3', ['b']);
    const done = await h.until(async () => {
      const r = await getRun(run.workflowRunId);
      return r.status === RS.RUN_STATUS_COMPLETED ? r : null;
    });
    expect(done.spent!.amount).toBe('9');
    expect(done.committed!.amount).toBe('0');
    const shard0 = (await eventsOf(run.workflowRunId)).filter((e) => e.shard === 0).map((e) => e.type);
    expect(shard0).toEqual(['task.posted', 'task.awarded', 'task.failed', 'task.retried', 'task.posted', 'task.awarded', 'task.delivered', 'task.settled']);
    const tasks = (await h.client.listTasks({ page: undefined, actor: asAgent(owner), workflowRunId: run.workflowRunId })).tasks;
    expect(tasks.map((t) => [t.shard, t.attempt, t.status]).sort()).toEqual([
      [0, 1, workflowsV1.TaskStatus.TASK_STATUS_FAILED],
      [0, 2, workflowsV1.TaskStatus.TASK_STATUS_SETTLED],
      [1, 1, workflowsV1.TaskStatus.TASK_STATUS_SETTLED],
    ]);
  });

  it('fails the run after max attempts and cancels the other live contracts', async () => {
    const owner = h.newOwner('100');
    const run = await createRun(owner, [stageSpec('only', 3)], { maxShardAttempts: 2 });
    const [s0, s1, s2] = h.market.ofStage(run.workflowRunId, 'only');
    await h.market.award(s1.contractId, '5');
    await h.market.award(s2.contractId, '5');
    await h.market.deliver(s2.contractId);
    await h.until(async () => (await getRun(run.workflowRunId)).committed!.amount === '10');
    await h.market.expire(s0.contractId);
    const second = await h.until(async () => h.market.ofStage(run.workflowRunId, 'only').find((c) => c.labels.shard === '0' && c.labels.attempt === '2'));
    await h.market.expire(second.contractId);

    const failed = await h.until(async () => {
      const r = await getRun(run.workflowRunId);
      return r.status === RS.RUN_STATUS_FAILED ? r : null;
    });
    expect(failed.failureReason).toBe('stage only shard 0 failed 2 times (contract expired)');
    // The awarded shard is cancelled in the market (escrow released there); the delivered one
    // cannot be and is left to finish.
    await h.until(async () => h.market.shard(run.workflowRunId, 'only', 1).status === 9);
    const cancels = h.market.fake.calls.filter((c) => c.method === 'cancelContract').map((c) => (c.request as { contractId: string }).contractId);
    expect(cancels).toEqual([s1.contractId]);
    expect(h.market.fake.calls.find((c) => c.method === 'cancelContract')!.ctx.actor).toBe('operator:workflows');
    expect(failed.committed!.amount).toBe('5');
    const types = (await eventsOf(run.workflowRunId)).map((e) => e.type);
    expect(types.slice(-3)).toEqual(['task.failed', 'task.cancelled', 'run.failed']);
    // ListRunContracts shows the market's answer: the cancelled contract (status filter CANCELLED).
    const cancelled = await h.until(async () => {
      const list = (await h.client.listRunContracts({ page: undefined, actor: operator, workflowRunId: run.workflowRunId, status: 9 /* cancelled */ })).contracts;
      return list.length === 1 ? list : null;
    });
    expect(cancelled[0]).toMatchObject({ contractId: s1.contractId, shard: 1 });

    // The delivered shard still settles in the market: its price counts as spent, nothing is re-posted.
    await h.market.settle(s2.contractId, ['late']);
    await h.until(async () => (await getRun(run.workflowRunId)).spent!.amount === '5');
    expect((await getRun(run.workflowRunId)).committed!.amount).toBe('0');
    expect(h.market.ofStage(run.workflowRunId, 'only')).toHaveLength(4);
  });
});

describe('stage inputs over the market limit', () => {
  it('fails the run instead of posting contracts the market would refuse', async () => {
    const owner = h.newOwner('100');
    const run = await createRun(owner, [stageSpec('wide', 2), stageSpec('next', 1)]);
    const refs = (shard: number) => Array.from({ length: 33 }, (_, i) => `sha256:${shard}-${i}`);
    for (const shard of [0, 1]) await h.market.complete(h.market.shard(run.workflowRunId, 'wide', shard).contractId, '1', refs(shard));
    const failed = await h.until(async () => {
      const r = await getRun(run.workflowRunId);
      return r.status === RS.RUN_STATUS_FAILED ? r : null;
    });
    expect(failed.failureReason).toBe('stage next would start with 66 input refs; a shard contract carries at most 64');
    expect(failed.stages.map((s) => s.status)).toEqual([workflowsV1.StageStatus.STAGE_STATUS_COMPLETED, workflowsV1.StageStatus.STAGE_STATUS_FAILED]);
    expect(failed.spent!.amount).toBe('2');
    expect(h.market.ofStage(run.workflowRunId, 'next')).toHaveLength(0);
  });
});

describe('CreateRun refusals', () => {
  it('409 insufficient_funds when the available balance is below the budget; nothing stored', async () => {
    const owner = h.newOwner('19.999999');
    const before = h.market.contracts().length;
    const f = await failure(createRun(owner, [stageSpec('a', 2)]));
    expect(f).toEqual({ code: 'insufficient_funds', details: { currency: 'CREDIT', available: '19.999999', required: '20' } });
    const { rows } = await h.sql.query('SELECT 1 FROM workflow_runs WHERE owner_agent_id = $1', [owner]);
    expect(rows).toHaveLength(0);
    expect(h.market.contracts().length).toBe(before);
  });

  it('400 run_currency_mismatch, duplicate_stage_name; 403 for another owner; 404 unknown owner', async () => {
    const owner = h.newOwner('100');
    expect((await failure(createRun(owner, [stageSpec('a', 1), stageSpec('b', 1, '1', 'USD')]))).code).toBe('run_currency_mismatch');
    expect((await failure(createRun(owner, [stageSpec('a', 1), stageSpec('a', 1)]))).code).toBe('duplicate_stage_name');
    const other = h.newOwner('100');
    expect((await failure(h.client.createRun({ actor: asAgent(other), ownerAgentId: owner, template: 't', stages: [stageSpec('a', 1)], inputRefs: [], maxShardAttempts: 0, idempotencyKey: '' }))).code).toBe('acting_agent_mismatch');
    expect((await failure(h.client.createRun({ actor: operator, ownerAgentId: 'test:agent:nobody', template: 't', stages: [stageSpec('a', 1)], inputRefs: [], maxShardAttempts: 0, idempotencyKey: '' }))).code).toBe('agent_not_found');
    h.identity.freeze(owner);
    expect((await failure(createRun(owner, [stageSpec('a', 1)]))).code).toBe('agent_frozen');
  });

  it('replays the same request under a key and refuses another one', async () => {
    const owner = h.newOwner('100');
    const first = await h.client.createRun({ actor: asAgent(owner), ownerAgentId: owner, template: 't', stages: [stageSpec('a', 1)], inputRefs: [], maxShardAttempts: 0, idempotencyKey: 'k1' });
    const again = await h.client.createRun({ actor: asAgent(owner), ownerAgentId: owner, template: 't', stages: [stageSpec('a', 1)], inputRefs: [], maxShardAttempts: 0, idempotencyKey: 'k1' });
    expect(again.idempotentReplayed).toBe(true);
    expect(again.run!.workflowRunId).toBe(first.run!.workflowRunId);
    expect(h.market.ofStage(first.run!.workflowRunId, 'a')).toHaveLength(1);
    const f = await failure(h.client.createRun({ actor: asAgent(owner), ownerAgentId: owner, template: 't', stages: [stageSpec('a', 2)], inputRefs: [], maxShardAttempts: 0, idempotencyKey: 'k1' }));
    expect(f.code).toBe('idempotency_key_reused');
  });
});

describe('market events', () => {
  it('duplicate and out-of-order events change nothing twice', async () => {
    const owner = h.newOwner('100');
    const run = await createRun(owner, [stageSpec('a', 2)]);
    const [c0, c1] = h.market.ofStage(run.workflowRunId, 'a');
    const awarded = await h.market.award(c0.contractId, '4');
    await h.until(async () => (await getRun(run.workflowRunId)).committed!.amount === '4');
    // The same event again (the bus drops a repeated id; a new id with the same content is a repeat).
    await h.market.publish(awarded);
    await h.market.publish({ ...awarded, id: `${awarded.id}x` });
    await h.market.deliver(c0.contractId);
    const settled = await h.market.settle(c0.contractId, ['r0']);
    await h.until(async () => (await getRun(run.workflowRunId)).spent!.amount === '4');
    // Stale events after settlement: the award again, a delivery again, the settlement again.
    await h.market.publish({ ...awarded, id: `${awarded.id}y` });
    await h.market.publish({ ...settled, id: `${settled.id}y` });
    // A marker event on the other shard: once it is applied, the stale ones before it were too.
    await h.market.award(c1.contractId, '1');
    const r = await h.until(async () => {
      const x = await getRun(run.workflowRunId);
      return x.committed!.amount === '1' ? x : null;
    });
    expect(r.spent!.amount).toBe('4');
    const shard0 = (await eventsOf(run.workflowRunId)).filter((e) => e.shard === 0).map((e) => e.type);
    expect(shard0).toEqual(['task.posted', 'task.awarded', 'task.delivered', 'task.settled']);
    // Each event was taken once by the durable consumer (processed_events, same transaction).
    const seen = await h.sql.query('SELECT event_id FROM processed_events WHERE consumer = $1 AND event_id = ANY($2)', ['workflows-market', [awarded.id, settled.id, `${awarded.id}y`]]);
    expect(seen.rows).toHaveLength(3);
  });

  it('ignores contracts without our labels or naming an unknown run', async () => {
    const before = (await h.sql.query('SELECT count(*)::int AS n FROM task_events')).rows[0].n;
    const contract = { ...marketV1.Contract.fromPartial({}), contractId: 'ctr_foreign', status: 2, labels: { workflow_run_id: 'run_unknown', stage: 'a', shard: '0', attempt: '1' } };
    await h.bus.publish(newEvent({ type: 'exchange.market.contract.awarded', source: 'market', subjectId: 'ctr_foreign', data: marketV1Events.ContractChanged.toJSON({ contract }) }));
    await h.bus.publish(newEvent({ type: 'exchange.market.contract.awarded', source: 'market', subjectId: 'ctr_plain', data: marketV1Events.ContractChanged.toJSON({ contract: { ...contract, labels: {} } }) }));
    // A settled event of a run we do not have (another exchange on the same NATS stream) is
    // acknowledged without reading its results from the market, so it is never retried.
    const settled = newEvent({ type: 'exchange.market.contract.settled', source: 'market', subjectId: 'ctr_foreign', data: marketV1Events.ContractChanged.toJSON({ contract: { ...contract, status: 5 } }) });
    await h.bus.publish(settled);
    await new Promise((r) => setTimeout(r, 200));
    expect((await h.sql.query('SELECT count(*)::int AS n FROM task_events')).rows[0].n).toBe(before);
    expect(h.market.fake.calls.filter((c) => c.method === 'listResults' && (c.request as { contractId: string }).contractId === 'ctr_foreign')).toHaveLength(0);
    expect((await h.sql.query('SELECT 1 FROM processed_events WHERE event_id = $1', [settled.id])).rows).toHaveLength(1);
  });
});

describe('reads', () => {
  it("hides another agent's runs and tasks, filters and pages lists", async () => {
    const owner = h.newOwner('100');
    const other = h.newOwner('100');
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await createRun(owner, [stageSpec('a', 2, '1'), stageSpec('b', 1, '1')], { template: 'paged' }));
    const mine = runs[0].workflowRunId;
    expect((await failure(h.client.getRun({ actor: asAgent(other), workflowRunId: mine }))).code).toBe('workflow_run_not_found');
    expect((await failure(h.client.listRunContracts({ page: undefined, actor: asAgent(other), workflowRunId: mine }))).code).toBe('workflow_run_not_found');
    expect((await failure(h.client.listTasks({ page: undefined, actor: asAgent(other), workflowRunId: mine }))).code).toBe('workflow_run_not_found');
    expect((await failure(h.client.listRuns({ page: undefined, actor: asAgent(other), ownerAgentId: owner }))).code).toBe('acting_agent_mismatch');
    expect((await h.client.listRuns({ page: undefined, actor: asAgent(other) })).runs).toHaveLength(0);
    expect((await h.client.listTasks({ page: undefined, actor: asAgent(other) })).tasks).toHaveLength(0);

    const p1 = await h.client.listRuns({ actor: asAgent(owner), template: 'paged', page: { limit: 2, cursor: '' } });
    expect(p1.runs.map((r) => r.workflowRunId)).toEqual([runs[2].workflowRunId, runs[1].workflowRunId]);
    const p2 = await h.client.listRuns({ actor: asAgent(owner), template: 'paged', page: { limit: 2, cursor: p1.page!.nextCursor } });
    expect(p2.runs.map((r) => r.workflowRunId)).toEqual([runs[0].workflowRunId]);
    expect(p2.page!.nextCursor).toBe('');
    expect((await h.client.listRuns({ page: undefined, actor: operator, ownerAgentId: owner, status: RS.RUN_STATUS_COMPLETED })).runs).toHaveLength(0);
    expect((await h.client.listRuns({ page: undefined, actor: operator, ownerAgentId: owner, status: RS.RUN_STATUS_RUNNING })).runs).toHaveLength(3);
    expect((await failure(h.client.listRuns({ actor: operator, page: { limit: 201, cursor: '' } }))).code).toBe('invalid_limit');

    const contracts = await h.client.listRunContracts({ page: undefined, actor: asAgent(owner), workflowRunId: mine, stage: 'a', shard: 1 });
    expect(contracts.contracts).toHaveLength(1);
    expect(contracts.contracts[0]).toMatchObject({ workflowRunId: mine, stage: 'a', shard: 1, attempt: 1, status: 1 /* open */ });
    expect(contracts.contracts[0].contractId).toBe(h.market.shard(mine, 'a', 1).contractId);
    const tasks = await h.client.listTasks({ actor: asAgent(owner), workflowRunId: mine, stage: 'a', status: workflowsV1.TaskStatus.TASK_STATUS_OPEN, page: { limit: 1, cursor: '' } });
    expect(tasks.tasks).toHaveLength(1);
    const rest = await h.client.listTasks({ actor: asAgent(owner), workflowRunId: mine, stage: 'a', status: workflowsV1.TaskStatus.TASK_STATUS_OPEN, page: { limit: 1, cursor: tasks.page!.nextCursor } });
    expect(rest.tasks).toHaveLength(1);
    expect(rest.tasks[0].taskId).not.toBe(tasks.tasks[0].taskId);
    expect(rest.tasks[0].inputRefs).toEqual(['sha256:seed']);
  });
});
