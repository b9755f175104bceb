import { ExchangeClient } from './client';
import { ExchangeApiError } from './errors';
import { idempotencyOf } from './idempotency';
import { json, problem, startRecordingServer, type RecordingServer } from './testing/recording-server';

// The workflows API against a recording server: paths, snake_case bodies with absent optionals
// absent, keys, queries, pagination, the unwrapped docket and problems.

describe('workflows API', () => {
  let server: RecordingServer;
  let client: ExchangeClient;
  beforeEach(async () => {
    server = await startRecordingServer();
    client = new ExchangeClient({ baseUrl: server.url, operatorToken: 'op-secret' });
  });
  afterEach(() => server.close());

  const last = () => server.requests.at(-1)!;
  const lastBody = () => JSON.parse(last().body.toString('utf8'));

  it('creates a run with snake_case stages and the key in the body, and reports a replay', async () => {
    server.respond(json(201, { workflow_run_id: 'run_1', status: 'pending' }, { 'idempotent-replayed': 'true' }));
    const run = await client.workflows.createRun({
      ownerAgentId: 'a:agent:owner',
      template: 'translate-review',
      stages: [
        { name: 'translate', shards: 2, contract: { title: 'T', tags: ['x'], budget: { amount: '5', currency: 'CREDIT' }, verificationMode: 'buyer', acceptanceCriteria: 'all of it', deadlineSeconds: 3600 } },
        { name: 'review', shards: 1, contract: { title: 'R', budget: { amount: '2', currency: 'CREDIT' }, verificationMode: 'verifier', verifierId: 'a:agent:v', acceptanceCriteria: 'ok', deadlineSeconds: 60 } },
      ],
      inputRefs: ['in-1'],
      maxShardAttempts: 2,
      idempotencyKey: 'run-1',
    });
    expect({ method: last().method, url: last().url, body: lastBody() }).toEqual({
      method: 'POST',
      url: '/v1/workflows/runs',
      body: {
        owner_agent_id: 'a:agent:owner',
        template: 'translate-review',
        stages: [
          { name: 'translate', shards: 2, contract: { title: 'T', tags: ['x'], budget: { amount: '5', currency: 'CREDIT' }, verification_mode: 'buyer', acceptance_criteria: 'all of it', deadline_seconds: 3600 } },
          {
            name: 'review',
            shards: 1,
            contract: { title: 'R', budget: { amount: '2', currency: 'CREDIT' }, verification_mode: 'verifier', verifier_id: 'a:agent:v', acceptance_criteria: 'ok', deadline_seconds: 60 },
          },
        ],
        input_refs: ['in-1'],
        max_shard_attempts: 2,
        idempotency_key: 'run-1',
      },
    });
    expect(run.workflow_run_id).toBe('run_1');
    expect(idempotencyOf(run)).toMatchObject({ key: 'run-1', replayed: true, status: 201 });
  });

  it('sends subscriptions and consumes with only what was given, and a generated key', async () => {
    server.respond(json(201, { subscription_id: 'sub_1' }), json(201, { subscription_id: 'sub_2' }), json(200, { acknowledged: 2 }), json(200, { acknowledged: 1 }));
    await client.workflows.createSubscription({ workflowRunId: 'run_1', eventTypes: ['task.settled'], leaseSeconds: 60 });
    expect(lastBody()).toEqual({ filters: { workflow_run_id: 'run_1', event_types: ['task.settled'] }, lease_seconds: 60, idempotency_key: expect.stringMatching(/^sdk-/) });
    await client.workflows.createSubscription();
    expect(lastBody()).toEqual({ filters: {}, idempotency_key: expect.stringMatching(/^sdk-/) });
    await client.workflows.consumeEvents('sub_1', { eventIds: ['evt_1', 'evt_2'] });
    expect({ url: last().url, body: lastBody() }).toEqual({ url: '/v1/workflows/tasks/subscriptions/sub_1/events/consume', body: { event_ids: ['evt_1', 'evt_2'] } });
    await client.workflows.consumeEvents('sub_1', { upTo: 'evt_9' });
    expect(lastBody()).toEqual({ up_to: 'evt_9' });
  });

  it('sends the reads to their paths with their queries', async () => {
    const calls: Array<() => Promise<unknown>> = [
      () => client.workflows.listRuns({ template: 'tr', agent: 'a:agent:o', status: 'running', limit: 2 }),
      () => client.workflows.getRun('run_1'),
      () => client.workflows.listRunContracts('run_1', { stage: 'translate', shard: 0, status: 'open' }),
      () => client.workflows.listTasks({ run: 'run_1', stage: 'review', status: 'settled', cursor: 'c' }),
      () => client.workflows.listEvents('sub_1', 10),
      () => client.workflows.listEvents('sub_1'),
    ];
    for (const call of calls) {
      server.respond(json(200, { data: [], next_cursor: null }));
      await call();
    }
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /v1/workflows/runs?template=tr&agent=${encodeURIComponent('a:agent:o')}&status=running&limit=2`,
      'GET /v1/workflows/runs/run_1',
      'GET /v1/workflows/runs/run_1/contracts?stage=translate&shard=0&status=open',
      'GET /v1/workflows/tasks?run=run_1&stage=review&status=settled&cursor=c',
      'GET /v1/workflows/tasks/subscriptions/sub_1/events?limit=10',
      'GET /v1/workflows/tasks/subscriptions/sub_1/events',
    ]);
  });

  it('walks every page of runs, unwraps the exported docket and throws problems', async () => {
    server.respond(json(200, { data: [{ workflow_run_id: 'run_1' }], next_cursor: 'c2' }), json(200, { data: [{ workflow_run_id: 'run_2' }], next_cursor: null }));
    const ids: string[] = [];
    for await (const run of client.workflows.iterateRuns({ template: 'tr' })) ids.push(run.workflow_run_id);
    expect(ids).toEqual(['run_1', 'run_2']);
    expect(last().url).toBe('/v1/workflows/runs?template=tr&cursor=c2');

    server.respond(json(200, { docket: { docket_id: 'dkt_1' } }));
    expect(await client.workflows.exportRun('run_1')).toEqual({ docket_id: 'dkt_1' });
    expect({ method: last().method, url: last().url, body: lastBody() }).toEqual({ method: 'POST', url: '/v1/workflows/runs/run_1/export', body: {} });

    server.respond(problem(404, 'workflow_run_not_found', 'workflow_run run_x not found'));
    const err = await client.workflows.getRun('run_x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeApiError);
    expect((err as ExchangeApiError).code).toBe('workflow_run_not_found');
  });
});
