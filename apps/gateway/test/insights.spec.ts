import { marketV1Insights } from '@exchange/proto';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// Market insights through the gateway (fake market): reputation, verifier reputation,
// recommendations (request_id from the query or the request id), price index and task tape —
// query mapping and validation, auth, and the answers' JSON.

const W = marketV1Insights.InsightWindow;
let h: Harness;
let agent: TestAgent;

beforeAll(async () => {
  h = await startHarness();
  agent = new TestAgent(uniqueAgentId('insights'));
  await registerAgent(h.app, agent);
});

afterAll(async () => {
  await h.close();
});

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers: { ...agent.signedHeaders('GET', url), ...headers } });
const AS_OF = '2026-11-01T00:00:00.000Z';

describe('GET /v1/reputation/{agent_id}', () => {
  it('should map window_days, as_of and include_receipts and answer the reputation', async () => {
    const res = await get(`/v1/reputation/${agent.agentId}?window_days=30&as_of=${AS_OF}&include_receipts=true`);
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('getReputation').request).toEqual({ agentId: agent.agentId, windowDays: 30, asOf: new Date(AS_OF), includeReceipts: true });
    expect(res.json()).toMatchObject({ agent_id: agent.agentId, window_days: 30, as_of: AS_OF, receipt_ids: ['rcpt_fake-a'], formula: 'rep-v1' });
    expect(res.json().components).toMatchObject({ settled_as_seller: 3, evidence_weight: 4.5 });
  });

  it('should leave receipt_ids out by default and pass no window (the market defaults to 90)', async () => {
    const res = await get(`/v1/reputation/${agent.agentId}`);
    expect(res.json()).not.toHaveProperty('receipt_ids');
    expect(h.market.lastCall('getReputation').request).toEqual({ agentId: agent.agentId, includeReceipts: false });
  });

  it.each([
    ['window_days=0', '/window_days'],
    ['window_days=3651', '/window_days'],
    ['as_of=yesterday', '/as_of'],
    ['include_receipts=maybe', '/include_receipts'],
    ['colour=red', '/colour'],
  ])('should answer 400 for %s', async (query, pointer) => {
    const body = expectProblem(await get(`/v1/reputation/${agent.agentId}?${query}`), 400, 'validation_failed');
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('should carry 404 agent_not_found and answer 401 without credentials', async () => {
    expectProblem(await get('/v1/reputation/acme:agent:nobody'), 404, 'agent_not_found');
    expectProblem(await h.app.inject({ method: 'GET', url: `/v1/reputation/${agent.agentId}` }), 401, 'unauthenticated');
  });
});

describe('GET /v1/reputation/verifier/{verifier_id}', () => {
  it('should answer the verifier reputation with the latency as a number', async () => {
    const res = await get(`/v1/reputation/verifier/${agent.agentId}?window_days=7`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ verifier_id: agent.agentId, window_days: 7, reports: 4, agreement_rate: null, median_latency_ms: 5400 });
  });

  it('should carry 404 verifier_not_found and refuse include_receipts (not a verifier option)', async () => {
    expectProblem(await get('/v1/reputation/verifier/acme:agent:nobody'), 404, 'verifier_not_found');
    expectProblem(await get(`/v1/reputation/verifier/${agent.agentId}?include_receipts=true`), 400, 'validation_failed');
  });
});

describe('GET /v1/recommendations/contracts/{contract_id}/sellers', () => {
  let contractId: string;
  beforeAll(async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/contracts',
      headers: operator(),
      payload: { buyer_id: agent.agentId, title: 't', budget: { amount: '1', currency: 'CREDIT' }, deadline: '2030-01-01T00:00:00.000Z', acceptance_criteria: 'c' },
    });
    contractId = res.json().contract_id;
  });

  it('should seed with the request_id query parameter when given', async () => {
    const res = await get(`/v1/recommendations/contracts/${contractId}/sellers?limit=5&exploration_rate=0.2&request_id=seed-1`);
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('recommendSellers').request).toEqual({ contractId, limit: 5, explorationRate: 0.2, requestId: 'seed-1' });
    expect(res.json()).toEqual({
      data: [
        {
          seller_id: 'acme:agent:seller-1',
          score: 0.8,
          rank: 1,
          exploration: false,
          signals: { tag_match: 1, reputation: 0.5, price_fit: 0.8, recency: 0.25, matching: 0.4 },
          listing_id: 'lst_fake-1',
        },
      ],
      exploration_slots: 0,
      request_id: 'seed-1',
    });
  });

  it('should seed with the X-Request-Id header otherwise, and with the generated request id without one', async () => {
    const res = await get(`/v1/recommendations/contracts/${contractId}/sellers`, { 'x-request-id': 'client-req-7' });
    expect(res.json().request_id).toBe('client-req-7');
    const generated = await get(`/v1/recommendations/contracts/${contractId}/sellers`);
    expect(generated.json().request_id).toBe(generated.headers['x-request-id']);
  });

  it.each(['limit=51', 'limit=0', 'exploration_rate=1.5', 'exploration_rate=-0.1', 'request_id=%20bad'])('should answer 400 for %s', async (query) => {
    expectProblem(await get(`/v1/recommendations/contracts/${contractId}/sellers?${query}`), 400, 'validation_failed');
  });

  it('should carry 404 contract_not_found', async () => {
    expectProblem(await get('/v1/recommendations/contracts/ctr_nope/sellers'), 404, 'contract_not_found');
  });
});

describe('GET /v1/recommendations/sellers/{seller_id}/contracts', () => {
  it('should answer contracts with null matching', async () => {
    const res = await get(`/v1/recommendations/sellers/${agent.agentId}/contracts?request_id=r2`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [{ contract_id: 'ctr_fake-1', score: 0.7, rank: 1, exploration: true, signals: { tag_match: 1, reputation: 0.5, price_fit: 0.8, recency: 0.25, matching: null } }],
      exploration_slots: 1,
      request_id: 'r2',
    });
  });

  it('should refuse a malformed seller id', async () => {
    expectProblem(await get('/v1/recommendations/sellers/not-an-agent/contracts'), 400, 'validation_failed');
  });
});

describe('GET /v1/price-index', () => {
  // include_sandbox is no longer forced to false here: the market defaults it by environment (issue 13).
  it('should default to window all, leave include_sandbox to the market and map the entries', async () => {
    const res = await get('/v1/price-index');
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('getPriceIndex').request).toEqual({ window: W.INSIGHT_WINDOW_ALL });
    expect(res.json()).toMatchObject({ window: 'all', include_sandbox: true, data: [{ tag: 'nlp', currency: 'CREDIT', count: 3, median: '90', p25: '85', p75: '95' }] });
  });

  it('should pass window, as_of, include_sandbox and tag', async () => {
    await get(`/v1/price-index?window=30d&as_of=${AS_OF}&include_sandbox=true&tag=code`);
    expect(h.market.lastCall('getPriceIndex').request).toEqual({ window: W.INSIGHT_WINDOW_30D, asOf: new Date(AS_OF), includeSandbox: true, tag: 'code' });
  });

  it('should answer 400 for an unknown window', async () => {
    expectProblem(await get('/v1/price-index?window=2w'), 400, 'validation_failed');
  });
});

describe('GET /v1/task-tape', () => {
  it('should leave include_sandbox to the market (default true) and map the figures', async () => {
    const res = await get('/v1/task-tape?window=1d');
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('getTaskTape').request).toEqual({ window: W.INSIGHT_WINDOW_1D });
    expect(res.json()).toMatchObject({
      window: '1d',
      include_sandbox: true,
      opened: { count: 3, volume: [{ amount: '300', currency: 'CREDIT' }] },
      settled: { count: 0, volume: [] },
    });
  });

  it('should answer 400 for window 30d (price index only)', async () => {
    expectProblem(await get('/v1/task-tape?window=30d'), 400, 'validation_failed');
  });
});
