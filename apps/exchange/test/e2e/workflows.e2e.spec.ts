import { expectProblem } from './http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { RUNS, SUBSCRIPTIONS, WorkflowsHttp } from './workflows-http';

// Each /v1/workflows endpoint through the whole exchange: a success and its main refusal, with
// the owner and a stranger signing their own requests and the operator using its token.

let stack: Stack;
let w: WorkflowsHttp;
let owner: RawAgent;
let stranger: RawAgent;
let runId: string;
let subscriptionId: string;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  w = new WorkflowsHttp(stack.baseUrl, stack.operatorToken);
  owner = await w.newAgent('wfe-owner');
  stranger = await w.newAgent('wfe-stranger');
  await w.fund(owner, '50');
  const run = await w.createRun(owner, [{ name: 'draft', shards: 2, budget: '5' }, { name: 'edit', shards: 1, budget: '5' }], { template: 'e2e-endpoints' });
  runId = run.workflow_run_id;
  await w.openShardContracts(owner, runId, 'draft', 2);
});

afterAll(async () => {
  if (w) await w.expectLedgerOk();
  await stack?.stop();
});

describe('POST /v1/workflows/runs', () => {
  it('should create a run for the acting agent, replay the same key and refuse a run the balance cannot cover', async () => {
    const body = w.runBody([{ name: 'one', shards: 1, budget: '2' }], { idempotency_key: 'wfe-run-1' });
    const first = await w.as(owner, 'POST', RUNS, body);
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toBe(`${RUNS}/${first.body.workflow_run_id}`);
    expect(first.body).toMatchObject({ owner_agent_id: owner.agentId, budget: { amount: '2', currency: 'CREDIT' }, max_shard_attempts: 3, stages: [{ name: 'one', index: 0, shards: 1 }] });
    const again = await w.as(owner, 'POST', RUNS, body);
    expect({ status: again.status, replayed: again.headers.get('idempotent-replayed'), id: again.body.workflow_run_id }).toEqual({ status: 201, replayed: 'true', id: first.body.workflow_run_id });

    const poor = expectProblem(await w.as(stranger, 'POST', RUNS, w.runBody([{ name: 'big', shards: 3, budget: '10' }])), 409, 'insufficient_funds');
    expect(poor).toMatchObject({ currency: 'CREDIT', required: '30' });
    expectProblem(await w.as(owner, 'POST', RUNS, w.runBody([{ name: 'same', shards: 1 }, { name: 'same', shards: 1 }])), 400, 'duplicate_stage_name');
    expectProblem(await w.as(owner, 'POST', RUNS, { ...w.runBody([{ name: 'x', shards: 1 }]), owner_agent_id: stranger.agentId }), 403, 'acting_agent_mismatch');
  });
});

describe('GET /v1/workflows/runs', () => {
  it('should list the owner’s runs by template and refuse an unknown status', async () => {
    const page = await w.expectStatus(w.as(owner, 'GET', `${RUNS}?template=e2e-endpoints`), 200);
    expect(page.data.map((r: any) => r.workflow_run_id)).toEqual([runId]);
    const all = await w.walk(`${RUNS}?agent=${owner.agentId}`, 'workflow_run_id', 1, owner);
    expect(all).toContain(runId);
    expect((await w.expectStatus(w.as(stranger, 'GET', `${RUNS}?template=e2e-endpoints`), 200)).data).toEqual([]);
    expectProblem(await w.as(owner, 'GET', `${RUNS}?status=finished`), 400, 'validation_failed');
  });
});

describe('GET /v1/workflows/runs/{workflow_run_id}', () => {
  it('should answer the run to its owner and the operator, and 404 to anyone else', async () => {
    const run = await w.run(owner, runId);
    expect(run).toMatchObject({ workflow_run_id: runId, status: 'running', current_stage: 0, budget: { amount: '15', currency: 'CREDIT' } });
    expect(run.stages.map((s: any) => [s.name, s.status])).toEqual([
      ['draft', 'running'],
      ['edit', 'pending'],
    ]);
    expect((await w.expectStatus(w.op('GET', `${RUNS}/${runId}`), 200)).workflow_run_id).toBe(runId);
    expectProblem(await w.as(stranger, 'GET', `${RUNS}/${runId}`), 404, 'workflow_run_not_found');
  });
});

describe('GET /v1/workflows/runs/{workflow_run_id}/contracts', () => {
  it('should list the shard contracts with filters, and 404 for an unknown run', async () => {
    const page = await w.expectStatus(w.as(owner, 'GET', `${RUNS}/${runId}/contracts?stage=draft`), 200);
    expect(page.data.map((c: any) => [c.stage, c.shard, c.attempt, c.status]).sort()).toEqual([
      ['draft', 0, 1, 'open'],
      ['draft', 1, 1, 'open'],
    ]);
    const one = await w.expectStatus(w.as(owner, 'GET', `${RUNS}/${runId}/contracts?shard=1`), 200);
    expect(one.data.map((c: any) => c.shard)).toEqual([1]);
    expect((await w.expectStatus(w.as(owner, 'GET', `${RUNS}/${runId}/contracts?status=settled`), 200)).data).toEqual([]);
    expectProblem(await w.as(owner, 'GET', `${RUNS}/run_00000000-0000-7000-8000-000000000000/contracts`), 404, 'workflow_run_not_found');
  });
});

describe('POST /v1/workflows/runs/{workflow_run_id}/export', () => {
  it('should export the signed docket to the operator and refuse an agent', async () => {
    const { docket } = await w.expectStatus(w.op('POST', `${RUNS}/${runId}/export`, {}), 200);
    expect(docket).toMatchObject({ subject: { workflow_run_id: runId }, signature: expect.any(String) });
    expect((await w.expectStatus(w.op('POST', '/v1/casefiles/verify', { docket }), 200)).valid).toBe(true);
    expectProblem(await w.as(owner, 'POST', `${RUNS}/${runId}/export`, {}), 403, 'operator_token_required');
  });
});

describe('GET /v1/workflows/tasks', () => {
  it('should list the run’s tasks by stage and status, and refuse an unknown status', async () => {
    const page = await w.expectStatus(w.as(owner, 'GET', `/v1/workflows/tasks?run=${runId}&stage=draft&status=open`), 200);
    expect(page.data).toHaveLength(2);
    expect(page.data[0]).toMatchObject({ workflow_run_id: runId, stage: 'draft', attempt: 1, status: 'open', contract_id: expect.stringMatching(/^ctr_/), input_refs: ['doc:input-1'] });
    expect((await w.expectStatus(w.as(owner, 'GET', `/v1/workflows/tasks?run=${runId}&stage=edit`), 200)).data).toEqual([]);
    expectProblem(await w.as(owner, 'GET', '/v1/workflows/tasks?status=done'), 400, 'validation_failed');
  });
});

describe('POST /v1/workflows/tasks/subscriptions', () => {
  it('should create a subscription on the owner’s run and refuse one on another agent’s run', async () => {
    const sub = await w.subscribe(owner, { filters: { workflow_run_id: runId, event_types: ['run.started', 'task.posted'] }, lease_seconds: 5 });
    expect(sub).toMatchObject({ subscription_id: expect.stringMatching(/^sub_/), owner: owner.agentId, ack_floor: 0, lease_seconds: 5, pending_count: 3 });
    subscriptionId = sub.subscription_id;
    expectProblem(await w.as(stranger, 'POST', SUBSCRIPTIONS, { filters: { workflow_run_id: runId } }), 404, 'workflow_run_not_found');
  });
});

describe('GET /v1/workflows/tasks/subscriptions/{subscription_id}/events', () => {
  it('should hand the events out in order under a lease, and 404 to another agent', async () => {
    const first = await w.events(owner, subscriptionId, 2);
    expect(first.data.map((e: any) => [e.type, e.delivery_count])).toEqual([
      ['run.started', 1],
      ['task.posted', 1],
    ]);
    const next = await w.events(owner, subscriptionId, 2);
    expect(next.data.map((e: any) => e.type)).toEqual(['task.posted']);
    expect(next.data[0].sequence).toBeGreaterThan(first.data[1].sequence);
    expect(next.subscription).toMatchObject({ ack_floor: 0, pending_count: 3 });
    expectProblem(await w.as(stranger, 'GET', `${SUBSCRIPTIONS}/${subscriptionId}/events`), 404, 'subscription_not_found');
  });
});

describe('POST /v1/workflows/tasks/subscriptions/{subscription_id}/events/consume', () => {
  it('should acknowledge once, hand unacknowledged events out again after their lease, and refuse unknown ids', async () => {
    const leased = (await w.events(owner, subscriptionId, 10)).data as any[];
    expect(leased).toEqual([]);
    expectProblem(await w.as(owner, 'POST', `${SUBSCRIPTIONS}/${subscriptionId}/events/consume`, { event_ids: ['evt_unknown'] }), 404, 'task_event_not_found');
    expectProblem(await w.as(owner, 'POST', `${SUBSCRIPTIONS}/${subscriptionId}/events/consume`, { event_ids: ['x'], up_to: 'y' }), 400, 'validation_failed');
    // Once the 5 s lease is over the three events come back (second delivery); consume the first, then the rest.
    await new Promise((r) => setTimeout(r, 6_000));
    const again = (await w.events(owner, subscriptionId, 10)).data as any[];
    expect(again.map((e: any) => e.delivery_count)).toEqual([2, 2, 2]);
    const one = await w.consume(owner, subscriptionId, { event_ids: [again[0].event_id] });
    expect(one).toMatchObject({ acknowledged: 1, subscription: { pending_count: 2 } });
    // The floor passes the acknowledged event and the events the filter leaves out, up to the next pending one.
    expect(one.subscription.ack_floor).toBe(again[1].sequence - 1);
    const rest = await w.consume(owner, subscriptionId, { up_to: again[2].event_id });
    expect(rest).toMatchObject({ acknowledged: 2, subscription: { ack_floor: again[2].sequence, pending_count: 0 } });
    expect((await w.consume(owner, subscriptionId, { up_to: again[2].event_id })).acknowledged).toBe(0);
  });
});
