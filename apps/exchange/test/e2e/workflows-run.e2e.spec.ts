import { verifyDocket } from '@exchange/sdk';
import { bootStack, exchangePublicKey, type Stack } from './stack';
import { RUNS, shardArtifact, WorkflowsHttp } from './workflows-http';
import { eventually } from './wallet-http';

// A workflow run driven end to end through the gateway, as agents and the operator call it: the
// engine posts each stage's shard contracts in the market (labelled, funded at award from the
// owner's wallet), sellers offer and deliver, the operator awards, `auto` verification settles;
// stage outputs become the next stage's inputs; task events arrive in order through a
// subscription (list → consume); the export verifies. Then a failure: a cancelled shard contract
// with max_shard_attempts 1 fails the run, the other shard contract is cancelled and the owner's
// balance comes back to what it was.

let stack: Stack;
let w: WorkflowsHttp;
let exchangeKey: string;

beforeAll(async () => {
  stack = await bootStack();
  w = new WorkflowsHttp(stack.baseUrl, stack.operatorToken);
  exchangeKey = await exchangePublicKey(stack);
});

afterAll(async () => {
  if (w) await w.expectLedgerOk();
  await stack?.stop();
});

const STAGES = ['extract', 'translate', 'review'];
const byShard = (refs: number, stage: number) => Array.from({ length: refs }, (_, shard) => shardArtifact(stage, shard));

describe('a three-stage run with two shards per stage, to completion', () => {
  it('posts, mirrors, chains outputs to inputs, completes, reports every task event in order and exports a verifiable casefile', async () => {
    const owner = await w.newAgent('wf-owner');
    const sellers = [await w.newAgent('wf-seller-a'), await w.newAgent('wf-seller-b')];
    await w.fund(owner, '100');

    const created = await w.createRun(owner, STAGES.map((name) => ({ name, shards: 2, budget: '5' })), { max_shard_attempts: 2 });
    expect(created).toMatchObject({
      workflow_run_id: expect.stringMatching(/^run_/),
      owner_agent_id: owner.agentId,
      budget: { amount: '30', currency: 'CREDIT' },
      input_refs: ['doc:input-1'],
      max_shard_attempts: 2,
    });
    const runId = created.workflow_run_id as string;
    // The budget is checked, not held: money moves only when a shard contract is awarded.
    await w.expectBalance(owner, { available: '100', held: '0' });

    for (const [index, stage] of STAGES.entries()) {
      const contracts = await w.openShardContracts(owner, runId, stage, 2);
      expect(contracts.map((c) => [c.shard, c.attempt, c.stage_index])).toEqual([
        [0, 1, index],
        [1, 1, index],
      ]);
      for (const c of contracts) {
        const market = await w.contract(c.contract_id);
        expect(market).toMatchObject({
          buyer_id: owner.agentId,
          status: 'open',
          budget: { amount: '5', currency: 'CREDIT' },
          verification_mode: 'auto',
          labels: { workflow_run_id: runId, stage, shard: String(c.shard), attempt: '1' },
          // Stage 1 starts from the run's inputs, each later stage from the previous one's results in shard order.
          input_refs: index === 0 ? ['doc:input-1'] : byShard(2, index - 1),
        });
      }
      await w.awardShard(contracts[0].contract_id, sellers[0]!, '4');
      await w.expectBalance(owner, { available: String(100 - 8 * index - 4), held: '4' });
      const mid = await w.waitRun(owner, runId, (r) => r.committed.amount === '4');
      expect(mid).toMatchObject({ status: 'running', current_stage: index, spent: { amount: String(8 * index) } });
      await w.submitResult(sellers[0]!, contracts[0].contract_id, { artifact_refs: [shardArtifact(index, 0)] });
      await w.settleShard(contracts[1].contract_id, sellers[1]!, '4', shardArtifact(index, 1));
      const after = await w.waitRun(owner, runId, (r) => r.stages[index].status === 'completed');
      expect(after.stages[index]).toMatchObject({ name: stage, settled_shards: 2, output_refs: byShard(2, index), completed_at: expect.any(String) });
    }

    const done = await w.waitRun(owner, runId, (r) => r.status === 'completed');
    expect(done).toMatchObject({
      status: 'completed',
      spent: { amount: '24', currency: 'CREDIT' },
      committed: { amount: '0', currency: 'CREDIT' },
      output_refs: byShard(2, 2),
      failure_reason: null,
      completed_at: expect.any(String),
    });
    expect(done.stages.map((s: any) => [s.name, s.status, s.input_refs])).toEqual([
      ['extract', 'completed', ['doc:input-1']],
      ['translate', 'completed', byShard(2, 0)],
      ['review', 'completed', byShard(2, 1)],
    ]);
    // Six contracts at 4: the owner paid 24; each seller got 3 × (4 − fee 0.04).
    await w.expectBalance(owner, { available: '76', held: '0' });
    for (const seller of sellers) await w.expectBalance(seller, { available: '11.88', held: '0' });

    const tasks = (await w.expectStatus(w.as(owner, 'GET', `/v1/workflows/tasks?run=${runId}&status=settled`), 200)).data as any[];
    expect(tasks).toHaveLength(6);
    expect(new Set(tasks.map((t) => t.contract_id)).size).toBe(6);
    const all = (await w.expectStatus(w.as(owner, 'GET', `${RUNS}/${runId}/contracts?status=settled&limit=200`), 200)).data as any[];
    expect(all).toHaveLength(6);

    // Task events through a subscription, read at least once: list (leased), then consume.
    const sub = await w.subscribe(owner, { filters: { workflow_run_id: runId }, lease_seconds: 30 });
    expect(sub).toMatchObject({ owner: owner.agentId, ack_floor: 0, filters: { workflow_run_id: runId, stage: null, event_types: [] } });
    const listed = await w.events(owner, sub.subscription_id);
    const events = listed.data as any[];
    const seqs = events.map((e) => e.sequence);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(events.every((e) => e.workflow_run_id === runId && e.delivery_count === 1)).toBe(true);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run.started');
    expect(types.at(-1)).toBe('run.completed');
    const count = (type: string) => types.filter((t) => t === type).length;
    expect({ stagesStarted: count('stage.started'), stagesCompleted: count('stage.completed'), posted: count('task.posted'), awarded: count('task.awarded'), settled: count('task.settled') }).toEqual({
      stagesStarted: 3,
      stagesCompleted: 3,
      posted: 6,
      awarded: 6,
      settled: 6,
    });
    // Per task: posted before awarded before settled; per stage: started before its tasks settle, completed after.
    for (const task of tasks) {
      const at = (type: string) => events.findIndex((e) => e.type === type && e.task_id === task.task_id);
      expect([at('task.posted') < at('task.awarded'), at('task.awarded') < at('task.settled')]).toEqual([true, true]);
    }
    for (const stage of STAGES) {
      const of = (type: string) => events.findIndex((e) => e.type === type && e.stage === stage);
      const lastSettled = Math.max(...events.flatMap((e, i) => (e.type === 'task.settled' && e.stage === stage ? [i] : [])));
      expect([of('stage.started') < lastSettled, lastSettled < of('stage.completed')]).toEqual([true, true]);
    }
    expect(listed.subscription.pending_count).toBe(events.length);
    // Leased: a second read right away gets nothing new.
    expect((await w.events(owner, sub.subscription_id)).data).toEqual([]);
    const consumed = await w.consume(owner, sub.subscription_id, { up_to: events.at(-1).event_id });
    expect(consumed).toMatchObject({ acknowledged: events.length, subscription: { ack_floor: events.at(-1).sequence, pending_count: 0 } });
    expect((await w.consume(owner, sub.subscription_id, { event_ids: [events[0].event_id] })).acknowledged).toBe(0);

    // The run's casefile, signed by the exchange: verified by the exchange and offline.
    const { docket } = await w.expectStatus(w.op('POST', `${RUNS}/${runId}/export`, {}), 200);
    expect(docket).toMatchObject({ subject: { workflow_run_id: runId }, exchange_pubkey: exchangeKey });
    const kinds = (docket.entries as any[]).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['workflow_run', 'workflow_task', 'contract']));
    expect(kinds.filter((k) => k === 'workflow_task')).toHaveLength(6);
    const verdict = await w.expectStatus(w.op('POST', '/v1/casefiles/verify', { docket }), 200);
    expect(verdict).toMatchObject({ valid: true, docket_id: docket.docket_id });
    expect(verifyDocket(docket, { trustedPublicKey: exchangeKey }).valid).toBe(true);
    expect(verifyDocket({ ...docket, subject: { workflow_run_id: 'run_forged' } }, { trustedPublicKey: exchangeKey }).valid).toBe(false);
    await w.expectLedgerOk();
  });
});

describe('a shard that fails with no attempts left', () => {
  it('fails the run, cancels the other shard contract and gives the owner back every credit held', async () => {
    const owner = await w.newAgent('wf-fail-owner');
    const seller = await w.newAgent('wf-fail-seller');
    await w.fund(owner, '20');
    const run = await w.createRun(owner, [{ name: 'only', shards: 2, budget: '5' }, { name: 'never', shards: 1, budget: '5' }], { max_shard_attempts: 1 });
    const runId = run.workflow_run_id as string;
    const [first, second] = await w.openShardContracts(owner, runId, 'only', 2);

    // Shard 1 is awarded (4 held in escrow); then the owner cancels shard 0's open contract.
    await w.awardShard(second.contract_id, seller, '4');
    await w.expectBalance(owner, { available: '16', held: '4' });
    await w.expectStatus(w.as(owner, 'POST', `/v1/contracts/${first.contract_id}/cancel`, { reason: 'changed my mind' }), 200);

    const failed = await w.waitRun(owner, runId, (r) => r.status === 'failed');
    expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.any(String), spent: { amount: '0' }, committed: { amount: '0' } });
    expect(failed.stages[1]).toMatchObject({ name: 'never', status: expect.not.stringMatching(/running|completed/) });
    expect((await w.contract(first.contract_id)).status).toBe('cancelled');
    // The run is failed first; the engine then cancels the other shard contract, and the market
    // releases its escrow after committing the cancel: the end state is awaited, not raced.
    const other = await eventually(() => w.contract(second.contract_id), (c) => c.escrow_status === 'released');
    expect(other).toMatchObject({ status: 'cancelled', escrow_status: 'released' });
    await w.expectBalance(owner, { available: '20', held: '0' });
    await w.expectBalance(seller, { available: '0', held: '0' });

    const readTasks = async () => (await w.expectStatus(w.as(owner, 'GET', `/v1/workflows/tasks?run=${runId}`), 200)).data as any[];
    const tasks = await eventually(readTasks, (ts) => ts.every((t) => t.status === 'failed' || t.status === 'cancelled'));
    expect(tasks.map((t) => [t.shard, t.status]).sort()).toEqual([
      [0, 'failed'],
      [1, 'cancelled'],
    ]);
    const sub = await w.subscribe(owner, { filters: { workflow_run_id: runId, event_types: ['task.failed', 'task.cancelled', 'run.failed'] } });
    const readTypes = async () => ((await w.events(owner, sub.subscription_id)).data as any[]).map((e) => e.type as string);
    const types = await eventually(readTypes, (ts) => ts.length >= 3);
    expect([...types].sort()).toEqual(['run.failed', 'task.cancelled', 'task.failed']);
    // The failed shard's event comes first: it is what failed the run.
    expect(types[0]).toBe('task.failed');
    await w.expectLedgerOk();
  });
});
