import { marketV1, workflowsV1 } from '@exchange/proto';
import type { ProtoFake } from '@exchange/testing';
import { useWorkflowsHarness } from './fake-workflows';
import { expectProblem, operator, signedRequest, type Harness, type TestAgent } from './harness';

// Workflow runs through the gateway (fake workflows): what is sent (Actor, owner, stages with
// their enums, idempotency key, filters), the JSON shapes (run, page, shard contracts, docket), the
// auth modes, body and path validation, and the service's codes coming back as problems.

let h: Harness;
let owner: TestAgent;
let other: TestAgent;
let fake: ProtoFake;
useWorkflowsHarness((started, o, x) => {
  h = started;
  owner = o;
  other = x;
  fake = started.workflows;
});

type Method = 'GET' | 'POST';
const signed = (agent: TestAgent, method: Method, url: string, body?: unknown, extra: Record<string, string> = {}) => signedRequest(h.app, agent, method, url, body, extra);
const asOperator = (method: Method, url: string, payload?: unknown) => h.app.inject({ method, url, headers: operator(), ...(payload === undefined ? {} : { payload: payload as object }) });
const anonymous = (method: Method, url: string, payload?: unknown) => h.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

const T0 = '2026-11-25T10:00:00.000Z';
const contract = { title: 'Translate one chunk', budget: { amount: '5', currency: 'CREDIT' }, verification_mode: 'buyer', acceptance_criteria: 'Every sentence translated', deadline_seconds: 3600 };
const body = (over: Record<string, unknown> = {}) => ({ template: 'translate-review', stages: [{ name: 'translate', shards: 2, contract }], input_refs: ['in-1'], ...over });

describe('POST /v1/workflows/runs', () => {
  it('should create a run owned by the acting agent and answer 201 with its JSON and location', async () => {
    const res = await signed(owner, 'POST', '/v1/workflows/runs', body({ max_shard_attempts: 2, idempotency_key: 'run-1' }));
    expect(res.statusCode).toBe(201);
    expect(fake.lastCall('createRun').request).toEqual({
      actor: { agentId: owner.agentId, operator: false },
      ownerAgentId: owner.agentId,
      template: 'translate-review',
      stages: [
        {
          name: 'translate',
          shards: 2,
          contract: {
            title: 'Translate one chunk',
            description: '',
            tags: [],
            budget: { amount: '5', currency: 'CREDIT' },
            verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_BUYER,
            acceptanceCriteria: 'Every sentence translated',
            deadlineSeconds: 3600,
          },
        },
      ],
      inputRefs: ['in-1'],
      maxShardAttempts: 2,
      idempotencyKey: 'run-1',
    });
    expect(res.headers.location).toBe('/v1/workflows/runs/run_1');
    expect(res.json()).toEqual({
      workflow_run_id: 'run_1',
      template: 'translate-review',
      owner_agent_id: owner.agentId,
      status: 'pending',
      stages: [
        {
          name: 'translate',
          index: 0,
          shards: 2,
          contract: { title: 'Translate one chunk', description: '', tags: [], budget: { amount: '5', currency: 'CREDIT' }, verification_mode: 'buyer', acceptance_criteria: 'Every sentence translated', verifier_id: null, deadline_seconds: 3600 },
          status: 'pending',
          settled_shards: 0,
          input_refs: ['in-1'],
          output_refs: [],
          started_at: null,
          completed_at: null,
        },
      ],
      input_refs: ['in-1'],
      current_stage: 0,
      max_shard_attempts: 2,
      budget: { amount: '10', currency: 'CREDIT' },
      spent: { amount: '0', currency: 'CREDIT' },
      committed: { amount: '0', currency: 'CREDIT' },
      failure_reason: null,
      output_refs: [],
      created_at: T0,
      updated_at: T0,
      completed_at: null,
    });
  });

  it('should let the operator name the owner, default max_shard_attempts to 0 and mark a replay', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/workflows/runs', headers: operator({ 'idempotency-key': 'replayed-key' }), payload: body({ owner_agent_id: other.agentId }) });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(fake.lastCall('createRun').request).toMatchObject({ actor: { agentId: '', operator: true }, ownerAgentId: other.agentId, maxShardAttempts: 0, idempotencyKey: 'replayed-key' });
  });

  it('should refuse bad bodies before workflows sees them', async () => {
    const calls = fake.log.count('createRun');
    for (const bad of [
      body({ stages: [] }),
      body({ stages: [{ name: 'x', shards: 0, contract }] }),
      body({ stages: [{ name: 'x', shards: 101, contract }] }),
      body({ stages: [{ name: 'x', shards: 1, contract: { ...contract, deadline_seconds: 59 } }] }),
      body({ stages: [{ name: 'x', shards: 1, contract: { ...contract, verification_mode: 'oracle' } }] }),
      body({ stages: [{ name: 'x', shards: 1, contract: { ...contract, extra: 1 } }] }),
      body({ stages: [{ name: 'x', shards: 1, contract: { ...contract, acceptance_criteria: '' } }] }),
      body({ stages: [{ name: 'x', shards: 1, contract: { title: 'T', budget: { amount: '1', currency: 'CREDIT' }, verification_mode: 'auto', deadline_seconds: 60 } }] }),
      body({ max_shard_attempts: 11 }),
      body({ input_refs: Array(65).fill('r') }),
      body({ template: '' }),
      body({ surprise: true }),
    ]) {
      expectProblem(await signed(owner, 'POST', '/v1/workflows/runs', bad), 400, 'validation_failed');
    }
    expectProblem(await asOperator('POST', '/v1/workflows/runs', body()), 400, 'validation_failed'); // no owner, no acting agent
    expect(fake.log.count('createRun')).toBe(calls);
  });

  it('should refuse anonymous callers, another owner than the acting agent, and pass workflows’ refusals through', async () => {
    expectProblem(await anonymous('POST', '/v1/workflows/runs', body()), 401, 'unauthenticated');
    expectProblem(await signed(owner, 'POST', '/v1/workflows/runs', body({ owner_agent_id: other.agentId })), 403, 'acting_agent_mismatch');
    const poor = expectProblem(await signed(owner, 'POST', '/v1/workflows/runs', body({ template: 'poor' })), 409, 'insufficient_funds');
    expect(poor).toMatchObject({ currency: 'CREDIT', available: '2', required: '10' });
    expectProblem(await signed(owner, 'POST', '/v1/workflows/runs', body({ template: 'frozen' })), 403, 'agent_frozen');
  });
});

describe('GET /v1/workflows/runs', () => {
  it('should send the filters and page', async () => {
    const res = await signed(owner, 'GET', `/v1/workflows/runs?template=translate-review&agent=${owner.agentId}&status=running&limit=1`);
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('listRuns').request).toEqual({
      actor: { agentId: owner.agentId, operator: false },
      page: { limit: 1, cursor: '' },
      template: 'translate-review',
      ownerAgentId: owner.agentId,
      status: workflowsV1.RunStatus.RUN_STATUS_RUNNING,
    });
    expect(res.json()).toMatchObject({ data: [{ workflow_run_id: 'run_1', status: 'running', stages: [{ name: 'translate', status: 'running', started_at: T0 }] }], next_cursor: 'cur_2' });
  });

  it('should refuse bad filters and anonymous callers', async () => {
    expectProblem(await signed(owner, 'GET', '/v1/workflows/runs?status=done'), 400, 'validation_failed');
    expectProblem(await signed(owner, 'GET', '/v1/workflows/runs?limit=201'), 400, 'validation_failed');
    expectProblem(await signed(owner, 'GET', '/v1/workflows/runs?agent=nobody'), 400, 'validation_failed');
    expectProblem(await anonymous('GET', '/v1/workflows/runs'), 401, 'unauthenticated');
  });
});

describe('GET /v1/workflows/runs/{workflow_run_id}', () => {
  it('should answer the run and map an unknown one to 404', async () => {
    const res = await asOperator('GET', '/v1/workflows/runs/run_9');
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('getRun').request).toEqual({ actor: { agentId: '', operator: true }, workflowRunId: 'run_9' });
    expect(res.json()).toMatchObject({ workflow_run_id: 'run_9', status: 'running' });
    expectProblem(await signed(owner, 'GET', '/v1/workflows/runs/run_unknown'), 404, 'workflow_run_not_found');
  });

  it('should refuse a malformed id and anonymous callers', async () => {
    expectProblem(await signed(owner, 'GET', `/v1/workflows/runs/${'r'.repeat(129)}`), 400, 'validation_failed');
    expectProblem(await signed(owner, 'GET', '/v1/workflows/runs/run%20x'), 400, 'validation_failed');
    expectProblem(await anonymous('GET', '/v1/workflows/runs/run_1'), 401, 'unauthenticated');
  });
});

describe('GET /v1/workflows/runs/{workflow_run_id}/contracts', () => {
  it('should send the filters as proto enums and answer the shard contracts', async () => {
    const res = await signed(owner, 'GET', '/v1/workflows/runs/run_1/contracts?stage=translate&shard=1&status=awarded');
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('listRunContracts').request).toEqual({
      actor: { agentId: owner.agentId, operator: false },
      workflowRunId: 'run_1',
      page: { limit: 0, cursor: '' },
      stage: 'translate',
      shard: 1,
      status: marketV1.ContractStatus.CONTRACT_STATUS_AWARDED,
    });
    expect(res.json()).toEqual({
      data: [
        { contract_id: 'ctr_1', workflow_run_id: 'run_1', stage: 'translate', stage_index: 0, shard: 1, attempt: 1, task_id: 'tsk_1', status: 'awarded', seller_id: null, price: null, created_at: T0, updated_at: T0 },
      ],
      next_cursor: null,
    });
  });

  it('should refuse bad filters, anonymous callers and map an unknown run', async () => {
    expectProblem(await signed(owner, 'GET', '/v1/workflows/runs/run_1/contracts?status=posting'), 400, 'validation_failed');
    expectProblem(await signed(owner, 'GET', '/v1/workflows/runs/run_1/contracts?shard=-1'), 400, 'validation_failed');
    expectProblem(await anonymous('GET', '/v1/workflows/runs/run_1/contracts'), 401, 'unauthenticated');
    expectProblem(await signed(owner, 'GET', '/v1/workflows/runs/run_unknown/contracts'), 404, 'workflow_run_not_found');
  });
});

describe('POST /v1/workflows/runs/{workflow_run_id}/export', () => {
  it('should answer the operator the docket as an object', async () => {
    const res = await asOperator('POST', '/v1/workflows/runs/run_1/export', {});
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('exportRun').request).toEqual({ actor: { agentId: '', operator: true }, workflowRunId: 'run_1' });
    expect(res.json()).toEqual({ docket: { docket_id: 'dkt_1', subject: { workflow_run_id: 'run_1' }, entries: [], signature: 'c2ln' } });
  });

  it('should refuse agents, anonymous callers, a body with fields, and map an unknown run', async () => {
    const calls = fake.log.count('exportRun');
    expectProblem(await signed(owner, 'POST', '/v1/workflows/runs/run_1/export', {}), 403, 'operator_token_required');
    expectProblem(await anonymous('POST', '/v1/workflows/runs/run_1/export', {}), 401, 'unauthenticated');
    expectProblem(await asOperator('POST', '/v1/workflows/runs/run_1/export', { include_payloads: true }), 400, 'validation_failed');
    expect(fake.log.count('exportRun')).toBe(calls);
    expectProblem(await asOperator('POST', '/v1/workflows/runs/run_unknown/export', {}), 404, 'workflow_run_not_found');
  });
});
