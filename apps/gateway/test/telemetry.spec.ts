import { telemetryV1 } from '@exchange/proto';
import { CTR, T0, useTelemetryHarness, type FakeTelemetry } from './fake-telemetry';
import { expectProblem, operator, signedRequest, type Harness, type TestAgent } from './harness';

// The Telemetry area over a telemetry fake: what is sent (Actor, filters, pages, enums, windows),
// the JSON shapes (integers for int64 counts, seq a string, null for absent rates), the auth modes
// (operator-only routes refuse agents with 403 before any call) and query/body validation.

let h: Harness;
let fake: FakeTelemetry;
let agent: TestAgent;
useTelemetryHarness((started, f, a) => {
  h = started;
  fake = f;
  agent = a;
});

const asAgent = (url: string, body?: unknown) => signedRequest(h.app, agent, body === undefined ? 'GET' : 'POST', url, body);
const asOperator = (url: string, payload?: object) => h.app.inject({ method: payload ? 'POST' : 'GET', url, headers: operator(), ...(payload ? { payload } : {}) });
const T = T0.toISOString();

describe('POST /v1/telemetry/matching-signals', () => {
  it('should record the signal for the acting agent and answer 201', async () => {
    const res = await asAgent('/v1/telemetry/matching-signals', { signal: 'shortlist', contract_id: CTR, seller_id: 'acme:agent:seller-1', request_id: 'req-1' });
    expect(res.statusCode).toBe(201);
    expect(fake.lastCall('recordMatchingSignal').request).toEqual({
      actor: { agentId: agent.agentId, operator: false },
      signal: telemetryV1.SignalType.SIGNAL_TYPE_SHORTLIST,
      contractId: CTR,
      sellerId: 'acme:agent:seller-1',
      requestId: 'req-1',
    });
    expect(res.json()).toEqual({
      signal_id: 'sig_1',
      signal: 'shortlist',
      recorded_by: agent.agentId,
      contract_id: CTR,
      seller_id: 'acme:agent:seller-1',
      listing_id: null,
      request_id: 'req-1',
      occurred_at: T,
      recorded_at: T,
      duplicate: false,
    });
  });

  it('should answer 200 with duplicate true for a signal recorded before, and null recorded_by for the operator', async () => {
    const res = await asOperator('/v1/telemetry/matching-signals', { signal: 'impression', contract_id: CTR, seller_id: 'acme:agent:seller-1', request_id: 'seen-before', occurred_at: T });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ signal: 'impression', recorded_by: null, duplicate: true, occurred_at: T });
    expect(fake.lastCall<{ occurredAt: Date }>('recordMatchingSignal').request.occurredAt).toEqual(T0);
  });

  it.each([
    ['an unknown signal', { signal: 'like', contract_id: CTR, seller_id: 'acme:agent:seller-1' }],
    ['a missing seller', { signal: 'click', contract_id: CTR }],
    ['an unknown field', { signal: 'click', contract_id: CTR, seller_id: 'acme:agent:seller-1', weight: 2 }],
    ['a bad time', { signal: 'click', contract_id: CTR, seller_id: 'acme:agent:seller-1', occurred_at: 'yesterday' }],
  ])('should refuse %s with 400 validation_failed', async (_what, body) => {
    const before = fake.log.count('recordMatchingSignal');
    expectProblem(await asAgent('/v1/telemetry/matching-signals', body), 400, 'validation_failed');
    expect(fake.log.count('recordMatchingSignal')).toBe(before);
  });

  it('should answer 401 without credentials', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/telemetry/matching-signals', payload: { signal: 'click', contract_id: CTR, seller_id: 'acme:agent:seller-1' } });
    expectProblem(res, 401, 'unauthenticated');
  });
});

describe('categories', () => {
  it('should list categories with integer counts and pass the page', async () => {
    const res = await asAgent('/v1/telemetry/categories?limit=10&cursor=c1');
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('listCategories').request).toEqual({ actor: { agentId: agent.agentId, operator: false }, page: { limit: 10, cursor: 'c1' } });
    expect(res.json()).toEqual({
      data: [{ tag: 'translation', object_count: 3, contract_count: 2, listing_count: 1, first_seen_at: T, last_seen_at: T }],
      next_cursor: 'c2',
    });
  });

  it('should list the objects of a tag, filtered by kind', async () => {
    const res = await asAgent('/v1/telemetry/category/translation?kind=contract');
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('listCategoryObjects').request).toMatchObject({ tag: 'translation', kind: 'contract', page: { limit: 0, cursor: '' } });
    expect(res.json()).toEqual({
      category: { tag: 'translation', object_count: 1, contract_count: 1, listing_count: 0, first_seen_at: T, last_seen_at: T },
      data: [{ tag: 'translation', kind: 'contract', object_id: CTR, title: 'Translate', sandbox: true, first_seen_at: T }],
      next_cursor: null,
    });
  });

  it('should pass 404 category_not_found through, and refuse a bad tag, kind or limit with 400', async () => {
    expectProblem(await asAgent('/v1/telemetry/category/nothing'), 404, 'category_not_found');
    expectProblem(await asAgent('/v1/telemetry/category/Not%20a%20tag'), 400, 'validation_failed');
    expectProblem(await asAgent('/v1/telemetry/category/translation?kind=agent'), 400, 'validation_failed');
    expectProblem(await asAgent('/v1/telemetry/categories?limit=0'), 400, 'validation_failed');
  });
});

describe('events', () => {
  it('should list public events with the filters as sent', async () => {
    const url = `/v1/telemetry/events/public?contract_id=${CTR}&event_type=exchange.market.contract.*&from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z&limit=5`;
    const res = await asAgent(url);
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('listPublicEvents').request).toEqual({
      actor: { agentId: agent.agentId, operator: false },
      filter: { contractId: CTR, eventType: 'exchange.market.contract.*', from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-12-01T00:00:00Z') },
      page: { limit: 5, cursor: '' },
    });
    expect(res.json()).toEqual({
      data: [{ id: 'evt_1', type: 'exchange.market.contract.created', subject_id: CTR, occurred_at: T, contract_id: CTR, listing_id: null, data: { buyer_alias: 'anon:abcdefghijkl' }, seq: '1' }],
      next_cursor: null,
    });
  });

  it.each([
    ['an unknown parameter', 'buyer_id=acme:agent:buyer-1'],
    ['a bad event type', 'event_type=exchange.*.settled'],
    ['a bad date', 'from=last-week'],
    ['to before from', 'from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z'],
  ])('should refuse %s with 400 validation_failed', async (_what, query) => {
    expectProblem(await asAgent(`/v1/telemetry/events/public?${query}`), 400, 'validation_failed');
  });

  it('should list complete events to the operator (nulls for absent fields)', async () => {
    const res = await asOperator('/v1/telemetry/events/operator?listing_id=lst_1');
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('listOperatorEvents').request).toMatchObject({ actor: { agentId: '', operator: true }, filter: { listingId: 'lst_1' } });
    const body = res.json();
    expect(body.next_cursor).toBe('next');
    expect(body.data[0]).toEqual({
      id: 'evt_1',
      type: 'exchange.market.contract.created',
      source: 'market',
      subject_id: CTR,
      occurred_at: T,
      actor: 'acme:agent:buyer-1',
      data: { contract_id: CTR, buyer_id: 'acme:agent:buyer-1' },
      trace_id: 'req-1',
      contract_id: CTR,
      listing_id: null,
      seq: '1',
      recorded_at: T,
    });
    expect(body.data[1]).toMatchObject({ actor: null, trace_id: null, listing_id: 'lst_1' });
  });

  it.each([
    '/v1/telemetry/events/operator',
    '/v1/telemetry/events/operator/export',
    `/v1/telemetry/contracts/${CTR}/timeline`,
    `/v1/telemetry/contracts/${CTR}/timeline/export`,
    '/v1/telemetry/reports/weekly',
    '/v1/telemetry/rollups/market-integrity',
    '/v1/telemetry/rollups/bytes-to-atoms',
    '/v1/telemetry/rollups/coordination',
  ])('should refuse an agent on %s with 403 operator_token_required, without calling telemetry', async (url) => {
    const before = fake.calls.length;
    expectProblem(await asAgent(url), 403, 'operator_token_required');
    expect(fake.calls.length).toBe(before);
  });

  it('should answer a contract timeline in order, and 404 contract_not_found for an unknown contract', async () => {
    const res = await asOperator(`/v1/telemetry/contracts/${CTR}/timeline?limit=20`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ contract_id: CTR, data: [{ id: 'evt_1', seq: '1' }], next_cursor: null });
    expect(fake.lastCall('getContractTimeline').request).toEqual({ actor: { agentId: '', operator: true }, contractId: CTR, page: { limit: 20, cursor: '' } });
    expectProblem(await asOperator('/v1/telemetry/contracts/ctr_unknown/timeline'), 404, 'contract_not_found');
  });
});

describe('reports, rollups and outcomes', () => {
  it('should answer the weekly report with integer counts and pass week_start and include_sandbox', async () => {
    const res = await asOperator('/v1/telemetry/reports/weekly?week_start=2026-11-16&include_sandbox=true');
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('getWeeklyReport').request).toEqual({ actor: { agentId: '', operator: true }, weekStart: '2026-11-16', includeSandbox: true });
    expect(res.json()).toMatchObject({
      week_start: '2026-11-16',
      include_sandbox: true,
      contracts: { created: 4, settled: 2, expired: 0 },
      settled_volume: [{ amount: '90', currency: 'CREDIT' }],
      median_time_to_settle_ms: 5_400_000,
      top_tags: [{ tag: 'translation', count: 3 }],
      matching_signals: { impressions: 12, clicks: 4, shortlists: 2, awards: 1 },
      events_recorded: 87,
    });
    expectProblem(await asOperator('/v1/telemetry/reports/weekly?week_start=16-11-2026'), 400, 'validation_failed');
  });

  it('should answer the market integrity rollup with the default window 7d and a null rate', async () => {
    const res = await asOperator('/v1/telemetry/rollups/market-integrity');
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('getMarketIntegrityRollup').request).toEqual({ actor: { agentId: '', operator: true }, query: { window: '7d' } });
    expect(res.json()).toMatchObject({ window: { window: '7d', as_of: T }, state: 'normal', state_changes: 2, splits: 1, dispute_rate: null });
  });

  it('should pass window and as_of, and refuse an unknown window', async () => {
    await asOperator('/v1/telemetry/rollups/market-integrity?window=30d&as_of=2026-11-20T00:00:00Z');
    expect(fake.lastCall('getMarketIntegrityRollup').request).toEqual({ actor: { agentId: '', operator: true }, query: { window: '30d', asOf: new Date('2026-11-20T00:00:00Z') } });
    expectProblem(await asOperator('/v1/telemetry/rollups/coordination?window=2w'), 400, 'validation_failed');
  });

  it('should answer outcome metrics to an agent, contracts null with merchant_id', async () => {
    const res = await asAgent(`/v1/metrics/outcomes?window=all&agent_id=${encodeURIComponent(agent.agentId)}`);
    expect(res.statusCode).toBe(200);
    expect(fake.lastCall('getOutcomeMetrics').request).toEqual({ actor: { agentId: agent.agentId, operator: false }, query: { window: 'all' }, agentId: agent.agentId });
    expect(res.json()).toEqual({
      window: { window: 'all', from: null, as_of: T },
      merchant_id: null,
      agent_id: agent.agentId,
      contracts: {
        terminal: 4, settled: 3, refunded: 0, split: 0, cancelled: 1, expired: 0, disputed: 1,
        success_rate: 0.75, refund_rate: 0, dispute_rate: 0.25, median_time_to_settle_ms: 5_400_000, p90_time_to_settle_ms: null,
      },
      commerce: { ended: 0, completed: 0, canceled: 0, failed: 0, success_rate: null, median_time_to_complete_ms: null, volume: [] },
    });
    const merchant = await asAgent('/v1/metrics/outcomes?merchant_id=sandbox-merchant.local');
    expect(merchant.json()).toMatchObject({ merchant_id: 'sandbox-merchant.local', contracts: null });
    expectProblem(await asAgent('/v1/metrics/outcomes?agent_id=nobody'), 400, 'validation_failed');
  });
});
