import { createHash } from 'node:crypto';
import { CommerceHttp } from './commerce-http';
import { expectProblem } from './http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { newKey, walletPath } from './wallet-http';

// The gateway proxy through the whole exchange: an agent's own hold as the budget — 50 calls at
// a tenth of it sent at once record exactly 10 (201) and refuse 40 (402 budget_exceeded), nothing
// overspent; the run's casefile verifies with POST /v1/casefiles/verify; the operator's metrics
// count the 10; a commerce mandate as the budget (per-transaction limit, replay by key); and the
// ledger still checks out.

let stack: Stack;
let c: CommerceHttp;
let agent: RawAgent;
let signer: RawAgent;
let stranger: RawAgent;
let holdId: string;
/** The 10 calls the hold budget recorded. */
let recordedCalls: Array<{ status: number; latency_ms: number }> = [];

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const RUN = 'run-e2e-1';
const call = (over: Record<string, unknown> = {}) => ({
  agent_id: agent.agentId,
  run_id: RUN,
  upstream: 'api.example-llm.com',
  operation: 'POST /v1/completions',
  cost: '1',
  request_sha256: sha('request'),
  response_sha256: sha('response'),
  status: 200,
  latency_ms: 100,
  hold_id: holdId,
  ...over,
});

beforeAll(async () => {
  stack = await bootStack();
  c = new CommerceHttp(stack.baseUrl, stack.operatorToken);
  [agent, signer, stranger] = await Promise.all([c.newAgent('proxy-agent'), c.newAgent('proxy-signer'), c.newAgent('proxy-stranger')]);
  await c.faucet(agent, '50');
  const hold = await c.expectStatus(c.as(agent, 'POST', walletPath(agent, '/holds'), { amount: '10', currency: 'CREDIT', idempotency_key: newKey('proxy-hold') }), 201);
  holdId = hold.hold_id;
});

afterAll(async () => {
  await stack?.stop();
});

describe('POST /v1/gateway/proxy/calls with a hold budget', () => {
  it('records exactly 10 of 50 concurrent calls at a tenth of the hold; the other 40 are 402 budget_exceeded', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => c.as(agent, 'POST', '/v1/gateway/proxy/calls', call({ latency_ms: 100 + i, status: i % 5 === 0 ? 502 : 200 }))),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    for (const r of results.filter((x) => x.status === 402)) expectProblem(r, 402, 'budget_exceeded');
    const recorded = results.filter((r) => r.status === 201).map((r) => r.body);
    recordedCalls = recorded;
    expect(new Set(recorded.map((b) => b.call_id)).size).toBe(10);
    expect(recorded.map((b) => b.budget.calls).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(recorded[0]).toMatchObject({ agent_id: agent.agentId, run_id: RUN, budget_kind: 'hold', budget_ref: holdId, currency: 'CREDIT', cost: '1' });
  });

  it('has nothing left: one more call is 402 with remaining 0, and the hold is still held', async () => {
    const over = expectProblem(await c.as(agent, 'POST', '/v1/gateway/proxy/calls', call()), 402, 'budget_exceeded');
    expect(over).toMatchObject({ limit: '10', spent: '10', remaining: '0' });
    const balance = await c.expectStatus(c.as(agent, 'GET', walletPath(agent)), 200);
    expect(balance.balances).toEqual(expect.arrayContaining([expect.objectContaining({ currency: 'CREDIT', held: '10', available: '40' })]));
  });

  it('refuses another agent recording for it (403), both or no budget (400), a foreign hold (409 budget_unavailable)', async () => {
    expectProblem(await c.as(stranger, 'POST', '/v1/gateway/proxy/calls', call()), 403, 'acting_agent_mismatch');
    expectProblem(await c.as(agent, 'POST', '/v1/gateway/proxy/calls', call({ mandate_id: 'mdt_x' })), 400, 'validation_failed');
    expectProblem(await c.as(agent, 'POST', '/v1/gateway/proxy/calls', call({ hold_id: undefined })), 400, 'validation_failed');
    await c.faucet(stranger, '5');
    const foreign = await c.expectStatus(c.as(stranger, 'POST', walletPath(stranger, '/holds'), { amount: '5', currency: 'CREDIT', idempotency_key: newKey('foreign') }), 201);
    expectProblem(await c.as(agent, 'POST', '/v1/gateway/proxy/calls', call({ hold_id: foreign.hold_id })), 409, 'budget_unavailable');
  });
});

describe('POST /v1/gateway/casefiles/export', () => {
  it('exports the run’s signed docket (10 proxy_call entries) that POST /v1/casefiles/verify accepts', async () => {
    const docket = await c.expectStatus(c.as(agent, 'POST', '/v1/gateway/casefiles/export', { agent_id: agent.agentId, run_id: RUN }), 200);
    expect(docket.subject).toEqual({ agent_id: agent.agentId, run_id: RUN });
    expect(docket.entries.map((e: { kind: string }) => e.kind)).toEqual(Array(10).fill('proxy_call'));
    const verdict = await c.expectStatus(c.op('POST', '/v1/casefiles/verify', { docket }), 200);
    expect(verdict.valid).toBe(true);
    // A changed entry no longer verifies.
    const tampered = structuredClone(docket);
    tampered.entries[0].content.cost = '0.5';
    expect((await c.expectStatus(c.op('POST', '/v1/casefiles/verify', { docket: tampered }), 200)).valid).toBe(false);
  });

  it('refuses another agent’s run (403) and an unknown run (404 proxy_run_not_found)', async () => {
    expectProblem(await c.as(stranger, 'POST', '/v1/gateway/casefiles/export', { agent_id: agent.agentId, run_id: RUN }), 403, 'acting_agent_mismatch');
    expectProblem(await c.as(agent, 'POST', '/v1/gateway/casefiles/export', { agent_id: agent.agentId, run_id: 'never-ran' }), 404, 'proxy_run_not_found');
  });
});

describe('GET /v1/gateway/metrics (operator)', () => {
  it('counts the 10 calls, their errors, spend and latency for the agent', async () => {
    const m = await c.expectStatus(c.op('GET', `/v1/gateway/metrics?window=1h&agent_id=${encodeURIComponent(agent.agentId)}`), 200);
    expect(m.window).toBe('1h');
    expect(m.data).toHaveLength(1);
    expect(m.data[0]).toMatchObject({ agent_id: agent.agentId, upstream: 'api.example-llm.com', calls: 10, spend: [{ amount: '10', currency: 'CREDIT' }] });
    expect(m.data[0].errors).toBe(recordedCalls.filter((r) => r.status >= 400).length);
    const latencies = recordedCalls.map((r) => r.latency_ms).sort((a, b) => a - b);
    const { p50, p90, p99, max } = m.data[0].latency_ms;
    expect(max).toBe(latencies[9]);
    expect(latencies).toEqual(expect.arrayContaining([p50, p90, p99]));
    expect(p50 <= p90 && p90 <= p99 && p99 <= max).toBe(true);
  });

  it('refuses an agent (403) and an unknown window (400)', async () => {
    expectProblem(await c.as(agent, 'GET', '/v1/gateway/metrics'), 403, 'operator_token_required');
    expectProblem(await c.op('GET', '/v1/gateway/metrics?window=2w'), 400, 'validation_failed');
  });
});

describe('POST /v1/gateway/proxy/calls with a mandate budget', () => {
  it('spends a mandate for the agent in its currency, replays a keyed call, and refuses over the per-transaction limit', async () => {
    const mandate = await c.createMandate(signer, agent, { perTransaction: '5', total: '20' });
    const body = call({ hold_id: undefined, mandate_id: mandate.mandate_id, run_id: 'run-e2e-2', cost: '2', idempotency_key: newKey('proxy-call') });
    const first = await c.as(agent, 'POST', '/v1/gateway/proxy/calls', body);
    const recorded = await c.expectStatus(first, 201);
    expect(recorded).toMatchObject({ budget_kind: 'mandate', budget_ref: mandate.mandate_id, currency: 'USD', budget: { kind: 'mandate', currency: 'USD', limit: '20', spent: '2', remaining: '18', calls: 1 } });
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const replay = await c.as(agent, 'POST', '/v1/gateway/proxy/calls', body);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.call_id).toBe(recorded.call_id);
    expectProblem(await c.as(agent, 'POST', '/v1/gateway/proxy/calls', { ...body, cost: '3' }), 422, 'idempotency_key_reused');

    expectProblem(await c.as(agent, 'POST', '/v1/gateway/proxy/calls', { ...body, cost: '6', idempotency_key: newKey('over') }), 402, 'budget_exceeded');
    expectProblem(await c.as(agent, 'POST', '/v1/gateway/proxy/calls', { ...body, currency: 'CREDIT', idempotency_key: newKey('cur') }), 400, 'budget_currency_mismatch');
  });
});

describe('the ledger', () => {
  it('checks out', async () => {
    await c.expectLedgerOk();
  });
});
