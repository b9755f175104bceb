import { walletV1Metering } from '@exchange/proto';
import { DOCKET, T0, useMeteringHarness } from './fake-wallet-metering';
import type { FakeWalletLedger } from './fake-wallet-ledger';
import { expectProblem, operator, signedRequest, type Harness, type TestAgent } from './harness';

// The Gateway proxy routes over a wallet-ledger fake: the call as the RPC takes it (the budget's
// oneof, the idempotency key from the body or the header), the replay header, the 402 problem,
// the docket returned as the object it is, the metrics' shapes and filters, and who may call.

let h: Harness;
let fake: FakeWalletLedger;
let agent: TestAgent;
useMeteringHarness((started, f, agents) => {
  h = started;
  fake = f;
  agent = agents[0]!;
});

const T = T0.toISOString();
const SHA = 'a'.repeat(64);
const call = (over: Record<string, unknown> = {}) => ({
  agent_id: agent.agentId,
  run_id: 'run-1',
  upstream: 'api.example.com',
  operation: 'POST /v1/completions',
  cost: '1',
  request_sha256: SHA,
  response_sha256: SHA,
  status: 200,
  latency_ms: 12,
  hold_id: 'hld_1',
  ...over,
});

describe('POST /v1/gateway/proxy/calls', () => {
  it('should record the call for the signing agent (201) with its budget', async () => {
    const res = await signedRequest(h.app, agent, 'POST', '/v1/gateway/proxy/calls', call());
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(fake.lastCall('recordProxyCall').request).toEqual({
      agentId: agent.agentId,
      runId: 'run-1',
      upstream: 'api.example.com',
      operation: 'POST /v1/completions',
      cost: '1',
      requestSha256: SHA,
      responseSha256: SHA,
      status: 200,
      latencyMs: 12,
      budget: { $case: 'holdId', value: 'hld_1' },
    });
    expect(res.json()).toEqual({
      call_id: 'pxc_fake-1',
      agent_id: agent.agentId,
      run_id: 'run-1',
      upstream: 'api.example.com',
      operation: 'POST /v1/completions',
      cost: '1',
      currency: 'CREDIT',
      request_sha256: SHA,
      response_sha256: SHA,
      status: 200,
      latency_ms: 12,
      budget_kind: 'hold',
      budget_ref: 'hld_1',
      idempotency_key: null,
      recorded_at: T,
      created_at: T,
      budget: { kind: 'hold', ref: 'hld_1', currency: 'CREDIT', limit: '10', spent: '1', remaining: '9', calls: expect.any(Number) },
    });
  });

  it('should send a mandate budget and the Idempotency-Key header, and mark a replay', async () => {
    const body = call({ hold_id: undefined, mandate_id: 'mdt_1', currency: 'USD' });
    const first = await h.app.inject({ method: 'POST', url: '/v1/gateway/proxy/calls', headers: operator({ 'idempotency-key': 'k-1' }), payload: body });
    expect(first.statusCode).toBe(201);
    expect(fake.lastCall<walletV1Metering.RecordProxyCallRequest>('recordProxyCall').request).toMatchObject({ budget: { $case: 'mandateId', value: 'mdt_1' }, idempotencyKey: 'k-1', currency: 'USD' });
    expect(first.json()).toMatchObject({ budget_kind: 'mandate', idempotency_key: 'k-1' });
    const again = await h.app.inject({ method: 'POST', url: '/v1/gateway/proxy/calls', headers: operator(), payload: { ...body, idempotency_key: 'k-1' } });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().budget.calls).toBe(first.json().budget.calls);
  });

  it('should answer 402 budget_exceeded as problem+json with the figures', async () => {
    const res = await signedRequest(h.app, agent, 'POST', '/v1/gateway/proxy/calls', call({ cost: '999' }));
    const problem = expectProblem(res, 402, 'budget_exceeded');
    expect(problem).toMatchObject({ limit: '10', remaining: '1', cost: '999' });
  });

  it('should refuse an agent recording for another agent with 403 acting_agent_mismatch', async () => {
    const before = fake.log.count('recordProxyCall');
    expectProblem(await signedRequest(h.app, agent, 'POST', '/v1/gateway/proxy/calls', call({ agent_id: 'acme:agent:other' })), 403, 'acting_agent_mismatch');
    expect(fake.log.count('recordProxyCall')).toBe(before);
  });

  it.each([
    ['both budgets', () => call({ mandate_id: 'mdt_1' })],
    ['no budget', () => call({ hold_id: undefined })],
    ['a status out of range', () => call({ status: 700 })],
    ['a negative latency', () => call({ latency_ms: -1 })],
    ['a latency beyond int32', () => call({ latency_ms: 2 ** 31 })],
    ['an uppercase sha256', () => call({ request_sha256: 'A'.repeat(64) })],
    ['a cost as a number', () => call({ cost: 1 })],
    ['an unknown field', () => call({ note: 'x' })],
    ['a bad run id', () => call({ run_id: 'run 1' })],
  ])('should refuse %s with 400 validation_failed, before any call', async (_what, body: () => object) => {
    const before = fake.log.count('recordProxyCall');
    expectProblem(await signedRequest(h.app, agent, 'POST', '/v1/gateway/proxy/calls', body()), 400, 'validation_failed');
    expect(fake.log.count('recordProxyCall')).toBe(before);
  });

  it('should refuse a body key and a header key that differ with 400 idempotency_key_mismatch', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/gateway/proxy/calls', headers: operator({ 'idempotency-key': 'a' }), payload: call({ idempotency_key: 'b' }) });
    expectProblem(res, 400, 'idempotency_key_mismatch');
  });
});

describe('POST /v1/gateway/casefiles/export', () => {
  it('should return the docket object for the agent itself', async () => {
    const res = await signedRequest(h.app, agent, 'POST', '/v1/gateway/casefiles/export', { agent_id: agent.agentId, run_id: 'run-1' });
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('exportProxyCasefile').request).toEqual({ agentId: agent.agentId, runId: 'run-1' });
    expect(res.json()).toEqual(DOCKET);
  });

  it('should refuse another agent’s run with 403 and a missing run id with 400', async () => {
    expectProblem(await signedRequest(h.app, agent, 'POST', '/v1/gateway/casefiles/export', { agent_id: 'acme:agent:other', run_id: 'run-1' }), 403, 'acting_agent_mismatch');
    expectProblem(await signedRequest(h.app, agent, 'POST', '/v1/gateway/casefiles/export', { agent_id: agent.agentId }), 400, 'validation_failed');
  });
});

describe('GET /v1/gateway/metrics', () => {
  it('should default the window to all and map the rows', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/gateway/metrics', headers: operator() });
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('getProxyMetrics').request).toEqual({ window: 'all' });
    expect(res.json()).toEqual({
      window: 'all',
      as_of: T,
      data: [{ agent_id: 'acme:agent:subject', upstream: 'api.x', calls: 10, errors: 1, spend: [{ amount: '2.5', currency: 'CREDIT' }], latency_ms: { p50: 1, p90: 2, p99: 3, max: 4 } }],
    });
  });

  it('should pass the window, as_of and filters', async () => {
    const url = `/v1/gateway/metrics?window=1d&as_of=${encodeURIComponent(T)}&agent_id=${encodeURIComponent(agent.agentId)}&upstream=api.x`;
    expect((await h.app.inject({ method: 'GET', url, headers: operator() })).statusCode).toBe(200);
    expect(fake.lastCall('getProxyMetrics').request).toEqual({ window: '1d', asOf: T0, agentId: agent.agentId, upstream: 'api.x' });
  });

  it('should refuse an agent (403) and an unknown window (400)', async () => {
    expectProblem(await signedRequest(h.app, agent, 'GET', '/v1/gateway/metrics'), 403, 'operator_token_required');
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/gateway/metrics?window=2w', headers: operator() }), 400, 'validation_failed');
  });
});

describe('/openapi.json', () => {
  it('should document the 402 of a proxy call as a Problem', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const responses = doc.paths['/v1/gateway/proxy/calls'].post.responses;
    expect(responses['402'].content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
    expect(doc.paths['/v1/gateway/metrics'].get.summary).toContain('(operator)');
  });
});
