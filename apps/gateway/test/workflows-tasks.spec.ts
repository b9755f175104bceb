import { workflowsV1 } from '@exchange/proto';
import type { ProtoFake } from '@exchange/testing';
import { useWorkflowsHarness } from './fake-workflows';
import { expectProblem, operator, signedRequest, type Harness, type TestAgent } from './harness';

// Workflow tasks and task event subscriptions through the gateway (fake workflows): the filters
// and Actor sent, the JSON shapes (task, subscription, events with their data as objects, the
// consume answer), exactly one of event_ids / up_to, auth modes and the service's 404s.

let h: Harness;
let owner: TestAgent;
let fake: ProtoFake;
useWorkflowsHarness((started, o) => {
  h = started;
  owner = o;
  fake = started.workflows;
});

type Method = 'GET' | 'POST';
const signed = (method: Method, url: string, body?: unknown, extra: Record<string, string> = {}) => signedRequest(h.app, owner, method, url, body, extra);
const asOperator = (method: Method, url: string, payload?: unknown) => h.app.inject({ method, url, headers: operator(), ...(payload === undefined ? {} : { payload: payload as object }) });
const anonymous = (method: Method, url: string, payload?: unknown) => h.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

const T0 = '2026-11-25T10:00:00.000Z';
const EVENTS = '/v1/workflows/tasks/subscriptions/sub_1/events';

describe('GET /v1/workflows/tasks', () => {
  it('should send the filters and answer tasks with nulls for what a posting task lacks', async () => {
    const res = await signed('GET', '/v1/workflows/tasks?run=run_1&stage=translate&status=settled&limit=2');
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('listTasks').request).toEqual({
      actor: { agentId: owner.agentId, operator: false },
      page: { limit: 2, cursor: '' },
      workflowRunId: 'run_1',
      stage: 'translate',
      status: workflowsV1.TaskStatus.TASK_STATUS_SETTLED,
    });
    expect(res.json()).toEqual({
      data: [
        {
          task_id: 'tsk_1',
          workflow_run_id: 'run_1',
          stage: 'translate',
          stage_index: 0,
          shard: 0,
          attempt: 1,
          status: 'settled',
          contract_id: 'ctr_1',
          contract_status: 'settled',
          seller_id: 'acme:agent:seller-1',
          price: { amount: '4.5', currency: 'CREDIT' },
          input_refs: ['in-1'],
          result_refs: ['result:res_1'],
          failure_reason: null,
          created_at: T0,
          updated_at: T0,
          settled_at: T0,
        },
        expect.objectContaining({ task_id: 'tsk_2', status: 'posting', contract_id: null, contract_status: null, seller_id: null, price: null, settled_at: null }),
      ],
      next_cursor: null,
    });
  });

  it('should refuse bad filters, anonymous callers and map an unknown run', async () => {
    expectProblem(await signed('GET', '/v1/workflows/tasks?status=done'), 400, 'validation_failed');
    expectProblem(await signed('GET', '/v1/workflows/tasks?workflow_run_id=run_1'), 400, 'validation_failed');
    expectProblem(await anonymous('GET', '/v1/workflows/tasks'), 401, 'unauthenticated');
    expectProblem(await signed('GET', '/v1/workflows/tasks?run=run_unknown'), 404, 'workflow_run_not_found');
  });
});

describe('POST /v1/workflows/tasks/subscriptions', () => {
  it('should create a subscription with its filters and answer 201', async () => {
    const res = await signed('POST', '/v1/workflows/tasks/subscriptions', { filters: { workflow_run_id: 'run_1', stage: 'translate', event_types: ['task.settled', 'run.completed'] }, lease_seconds: 60 }, { 'idempotency-key': 'sub-1' });
    expect(res.statusCode).toBe(201);
    expect(fake.lastCall('createSubscription').request).toEqual({
      actor: { agentId: owner.agentId, operator: false },
      filters: { workflowRunId: 'run_1', stage: 'translate', eventTypes: ['task.settled', 'run.completed'] },
      leaseSeconds: 60,
      idempotencyKey: 'sub-1',
    });
    expect(res.json()).toEqual({
      subscription_id: 'sub_1',
      owner: owner.agentId,
      filters: { workflow_run_id: 'run_1', stage: 'translate', event_types: ['task.settled', 'run.completed'] },
      ack_floor: 0,
      pending_count: 2,
      lease_seconds: 60,
      created_at: T0,
    });
  });

  it('should take an empty body (every event, default lease) from the operator and mark a replay', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/workflows/tasks/subscriptions', headers: operator({ 'idempotency-key': 'replayed-key' }), payload: {} });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(fake.lastCall('createSubscription').request).toEqual({ actor: { agentId: '', operator: true }, filters: { eventTypes: [] }, leaseSeconds: 0, idempotencyKey: 'replayed-key' });
    expect(res.json()).toMatchObject({ owner: 'operator', filters: { workflow_run_id: null, stage: null, event_types: [] }, lease_seconds: 30 });
  });

  it('should refuse unknown event types, bad leases, anonymous callers and map an unknown run', async () => {
    const calls = fake.log.count('createSubscription');
    expectProblem(await signed('POST', '/v1/workflows/tasks/subscriptions', { filters: { event_types: ['task.exploded'] } }), 400, 'validation_failed');
    expectProblem(await signed('POST', '/v1/workflows/tasks/subscriptions', { lease_seconds: 4 }), 400, 'validation_failed');
    expectProblem(await signed('POST', '/v1/workflows/tasks/subscriptions', { lease_seconds: 3601 }), 400, 'validation_failed');
    expectProblem(await signed('POST', '/v1/workflows/tasks/subscriptions', { filters: { owner: 'x' } }), 400, 'validation_failed');
    expectProblem(await anonymous('POST', '/v1/workflows/tasks/subscriptions', {}), 401, 'unauthenticated');
    expect(fake.log.count('createSubscription')).toBe(calls);
    expectProblem(await signed('POST', '/v1/workflows/tasks/subscriptions', { filters: { workflow_run_id: 'run_unknown' } }), 404, 'workflow_run_not_found');
  });
});

describe('GET /v1/workflows/tasks/subscriptions/{subscription_id}/events', () => {
  it('should answer the leased events in order with their data as objects, and the subscription', async () => {
    const res = await signed('GET', `${EVENTS}?limit=2`);
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('listSubscriptionEvents').request).toEqual({ actor: { agentId: owner.agentId, operator: false }, subscriptionId: 'sub_1', limit: 2 });
    expect(res.json()).toEqual({
      data: [
        { event_id: 'evt_1', sequence: 1, type: 'run.started', workflow_run_id: 'run_1', stage: null, shard: null, task_id: null, contract_id: null, data: { run: { workflowRunId: 'run_1' } }, occurred_at: T0, delivery_count: 1 },
        { event_id: 'evt_2', sequence: 2, type: 'task.posted', workflow_run_id: 'run_1', stage: 'translate', shard: 0, task_id: 'tsk_1', contract_id: 'ctr_1', data: { task: { taskId: 'tsk_1' } }, occurred_at: T0, delivery_count: 2 },
      ],
      subscription: expect.objectContaining({ subscription_id: 'sub_1', ack_floor: 0, pending_count: 2 }),
    });
    await signed('GET', EVENTS);
    expect(fake.lastCall<{ limit: number }>('listSubscriptionEvents').request.limit).toBe(0);
  });

  it('should refuse a bad limit or id, anonymous callers and map an unknown subscription', async () => {
    expectProblem(await signed('GET', `${EVENTS}?limit=0`), 400, 'validation_failed');
    expectProblem(await signed('GET', `${EVENTS}?limit=201`), 400, 'validation_failed');
    expectProblem(await signed('GET', `/v1/workflows/tasks/subscriptions/${'s'.repeat(129)}/events`), 400, 'validation_failed');
    expectProblem(await anonymous('GET', EVENTS), 401, 'unauthenticated');
    expectProblem(await signed('GET', '/v1/workflows/tasks/subscriptions/sub_unknown/events'), 404, 'subscription_not_found');
  });
});

describe('POST /v1/workflows/tasks/subscriptions/{subscription_id}/events/consume', () => {
  it('should acknowledge event ids or everything up to one, and answer the subscription after it', async () => {
    const byIds = await signed('POST', `${EVENTS}/consume`, { event_ids: ['evt_1', 'evt_2'] });
    expect(byIds.statusCode).toBe(200);
    expect(fake.lastCall('consumeSubscriptionEvents').request).toEqual({ actor: { agentId: owner.agentId, operator: false }, subscriptionId: 'sub_1', eventIds: ['evt_1', 'evt_2'] });
    expect(byIds.json()).toEqual({ acknowledged: 2, subscription: expect.objectContaining({ ack_floor: 2, pending_count: 0 }) });
    const upTo = await asOperator('POST', `${EVENTS}/consume`, { up_to: 'evt_2' });
    expect(upTo.statusCode).toBe(200);
    expect(fake.lastCall('consumeSubscriptionEvents').request).toEqual({ actor: { agentId: '', operator: true }, subscriptionId: 'sub_1', eventIds: [], upTo: 'evt_2' });
  });

  it('should want exactly one of event_ids and up_to', async () => {
    const calls = fake.log.count('consumeSubscriptionEvents');
    const both = expectProblem(await signed('POST', `${EVENTS}/consume`, { event_ids: ['evt_1'], up_to: 'evt_2' }), 400, 'validation_failed');
    expect(both.errors).toEqual([{ pointer: '', message: 'exactly one of event_ids, up_to is required' }]);
    expectProblem(await signed('POST', `${EVENTS}/consume`, {}), 400, 'validation_failed');
    expectProblem(await signed('POST', `${EVENTS}/consume`, { event_ids: [] }), 400, 'validation_failed');
    expectProblem(await signed('POST', `${EVENTS}/consume`, { event_ids: Array(501).fill('evt_1') }), 400, 'validation_failed');
    expect(fake.log.count('consumeSubscriptionEvents')).toBe(calls);
  });

  it('should refuse anonymous callers and map an unknown subscription or event', async () => {
    expectProblem(await anonymous('POST', `${EVENTS}/consume`, { up_to: 'evt_1' }), 401, 'unauthenticated');
    expectProblem(await signed('POST', '/v1/workflows/tasks/subscriptions/sub_unknown/events/consume', { up_to: 'evt_1' }), 404, 'subscription_not_found');
    expectProblem(await signed('POST', `${EVENTS}/consume`, { event_ids: ['evt_1', 'evt_unknown'] }), 404, 'task_event_not_found');
  });
});
