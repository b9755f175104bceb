import { ExchangeApiError, type OperatorEvent } from '@exchange/sdk';
import { expectProblem, http } from './http';
import { bootStack, type Stack } from './stack';
import { collect, eventually, mondayOf, operatorEventsOf, settleTrade, type SettledTrade } from './telemetry-setup';

// Each telemetry endpoint through the whole exchange, after a private buyer's contract went from
// creation to settlement through the SDK: the public feed shows the buyer only as its alias, the
// operator feed and the timeline are complete and in order, the exports are the same events as
// JSONL, categories and signals work, the report, rollups and outcomes count the settlement;
// agents are refused the operator routes and bad input is a problem.

let stack: Stack;
let t: SettledTrade;
let ctr: string;

beforeAll(async () => {
  stack = await bootStack();
  t = await settleTrade(stack);
  ctr = t.contract.contract_id;
});

afterAll(async () => {
  await stack?.stop();
});

async function apiError(promise: Promise<unknown>): Promise<ExchangeApiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ExchangeApiError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

const typesOf = (events: Array<{ type: string }>) => events.map((e) => e.type);

describe('GET /v1/telemetry/events/public', () => {
  it('should show the contract with its buyer as the alias and never the buyer id', async () => {
    const alias = t.contract.buyer_alias;
    expect(alias).toMatch(/^anon:/);
    const events = await collect(t.stranger.client.telemetry.iteratePublicEvents({ contractId: ctr, limit: 2 }));
    expect(typesOf(events)).toEqual(expect.arrayContaining(['exchange.market.contract.created', 'exchange.market.contract.settled']));
    const text = JSON.stringify(events);
    expect(text).not.toContain(t.buyer.agentId);
    expect(text).toContain(alias);
    for (const e of events) expect(Object.keys(e).sort()).toEqual(['contract_id', 'data', 'id', 'listing_id', 'occurred_at', 'seq', 'subject_id', 'type']);
    const seqs = events.map((e) => BigInt(e.seq));
    expect([...seqs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(seqs);
  });

  it('should filter by type prefix and date range', async () => {
    const created = await t.stranger.client.telemetry.listPublicEvents({ contractId: ctr, eventType: 'exchange.market.contract.created' });
    expect(typesOf(created.data)).toEqual(['exchange.market.contract.created']);
    const offers = await t.stranger.client.telemetry.listPublicEvents({ contractId: ctr, eventType: 'exchange.market.offer.*' });
    expect(offers.data.length).toBeGreaterThan(0);
    for (const e of offers.data) expect(e.type.startsWith('exchange.market.offer.')).toBe(true);
    const before = await t.stranger.client.telemetry.listPublicEvents({ contractId: ctr, to: t.startedAt });
    expect(before.data).toEqual([]);
  });

  it('should refuse an unknown parameter and a reversed range with 400 problem+json', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', `/v1/telemetry/events/public?contract_id=${ctr}&buyer_id=x`, { token: stack.operatorToken }), 400, 'validation_failed');
    expectProblem(await http(stack.baseUrl, 'GET', '/v1/telemetry/events/public?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', { token: stack.operatorToken }), 400, 'validation_failed');
  });
});

describe('GET /v1/telemetry/events/operator', () => {
  it('should list every event of the contract, complete (the buyer id included)', async () => {
    const events = await operatorEventsOf(t);
    expect(typesOf(events)).toEqual(expect.arrayContaining(['exchange.market.contract.created', 'exchange.market.offer.submitted', 'exchange.market.contract.settled']));
    expect(JSON.stringify(events)).toContain(t.buyer.agentId);
    const created = events.find((e) => e.type === 'exchange.market.contract.created')!;
    expect(created).toMatchObject({ source: 'market', contract_id: ctr, actor: `agent:${t.buyer.agentId}` });
  });

  it('should refuse an agent with 403 operator_token_required', async () => {
    expect(await apiError(t.buyer.client.telemetry.listOperatorEvents({ contractId: ctr }))).toMatchObject({ status: 403, code: 'operator_token_required' });
  });
});

describe('GET /v1/telemetry/events/operator/export', () => {
  it('should stream the same events as JSONL (application/x-ndjson)', async () => {
    const listed = await operatorEventsOf(t);
    const exported = await collect(t.operator.telemetry.exportOperatorEvents({ contractId: ctr }));
    expect(exported).toEqual(listed);
    const raw = await fetch(`${stack.baseUrl}/v1/telemetry/events/operator/export?contract_id=${ctr}`, { headers: { authorization: `Bearer ${stack.operatorToken}` } });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/x-ndjson');
    const text = await raw.text();
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trim().split('\n').map((l) => (JSON.parse(l) as OperatorEvent).id)).toEqual(listed.map((e) => e.id));
  });

  it('should refuse an agent with 403 and bad filters with 400, before any line', async () => {
    expect(await apiError(collect(t.seller.client.telemetry.exportOperatorEvents()))).toMatchObject({ status: 403, code: 'operator_token_required' });
    expectProblem(await http(stack.baseUrl, 'GET', '/v1/telemetry/events/operator/export?event_type=not a type', { token: stack.operatorToken }), 400, 'validation_failed');
  });
});

describe('GET /v1/telemetry/contracts/{contract_id}/timeline', () => {
  it('should answer the contract’s events in the order they occurred, from creation to settlement', async () => {
    const timeline = await t.operator.telemetry.getContractTimeline(ctr, { limit: 200 });
    expect(timeline.contract_id).toBe(ctr);
    const times = timeline.data.map((e) => Date.parse(e.occurred_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(timeline.data[0]!.type).toBe('exchange.market.contract.created');
    const types = typesOf(timeline.data);
    expect(types.indexOf('exchange.market.offer.submitted')).toBeLessThan(types.indexOf('exchange.market.contract.settled'));
    expect(types.some((type) => type.startsWith('exchange.market.result.'))).toBe(true);
  });

  it('should answer 404 contract_not_found for a contract without events, and 403 to an agent', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', '/v1/telemetry/contracts/ctr_unknown-0000/timeline', { token: stack.operatorToken }), 404, 'contract_not_found');
    expect(await apiError(t.buyer.client.telemetry.getContractTimeline(ctr))).toMatchObject({ status: 403 });
  });
});

describe('GET /v1/telemetry/contracts/{contract_id}/timeline/export', () => {
  it('should stream the whole timeline as JSONL, the same events in the same order', async () => {
    const timeline = await t.operator.telemetry.getContractTimeline(ctr, { limit: 200 });
    expect(await collect(t.operator.telemetry.exportContractTimeline(ctr))).toEqual(timeline.data);
  });

  it('should answer 404 as a problem before any line', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', '/v1/telemetry/contracts/ctr_unknown-0000/timeline/export', { token: stack.operatorToken }), 404, 'contract_not_found');
  });
});

describe('GET /v1/telemetry/categories', () => {
  it('should list the contract’s tag with its count', async () => {
    const categories = await eventually(() => collect(t.stranger.client.telemetry.iterateCategories({ limit: 50 })), (all) => all.some((c) => c.tag === t.tag), `the tag ${t.tag}`);
    expect(categories.find((c) => c.tag === t.tag)).toMatchObject({ tag: t.tag, object_count: 1, contract_count: 1, listing_count: 0 });
  });
});

describe('GET /v1/telemetry/category/{tag}', () => {
  it('should list the contract under its tag, and 404 category_not_found for a tag nothing carries', async () => {
    const page = await t.stranger.client.telemetry.listCategoryObjects(t.tag);
    expect(page.category).toMatchObject({ tag: t.tag, contract_count: 1 });
    expect(page.data).toEqual([expect.objectContaining({ kind: 'contract', object_id: ctr, title: 'Translate a README to French' })]);
    expect(await apiError(t.stranger.client.telemetry.listCategoryObjects(`${t.tag}-none`))).toMatchObject({ status: 404, code: 'category_not_found' });
  });
});

describe('POST /v1/telemetry/matching-signals', () => {
  it('should record a signal per recorder (201), answer the same one again as a duplicate (200) and refuse a bad one (400)', async () => {
    const input = { signal: 'shortlist' as const, contractId: ctr, sellerId: t.seller.agentId, requestId: 'tel-e2e-1' };
    const first = await http(stack.baseUrl, 'POST', '/v1/telemetry/matching-signals', {
      token: stack.operatorToken,
      body: { signal: input.signal, contract_id: ctr, seller_id: t.seller.agentId, request_id: input.requestId },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ signal: 'shortlist', recorded_by: null, contract_id: ctr, seller_id: t.seller.agentId, duplicate: false });
    const mine = await t.buyer.client.telemetry.recordMatchingSignal(input);
    expect(mine).toMatchObject({ recorded_by: t.buyer.agentId, duplicate: false });
    const again = await http(stack.baseUrl, 'POST', '/v1/telemetry/matching-signals', {
      token: stack.operatorToken,
      body: { signal: input.signal, contract_id: ctr, seller_id: t.seller.agentId, request_id: input.requestId },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ signal_id: first.body.signal_id, duplicate: true });
    expect(await t.buyer.client.telemetry.recordMatchingSignal(input)).toMatchObject({ signal_id: mine.signal_id, duplicate: true });
    const bad = await http(stack.baseUrl, 'POST', '/v1/telemetry/matching-signals', { token: stack.operatorToken, body: { signal: 'like', contract_id: ctr, seller_id: t.seller.agentId } });
    expectProblem(bad, 400, 'validation_failed');
    expect(await apiError(t.buyer.client.telemetry.recordMatchingSignal({ ...input, occurredAt: new Date(Date.now() + 3600_000) }))).toMatchObject({ status: 400, code: 'invalid_signal_time' });
  });
});

describe('matching signals in the market\'s recommendations', () => {
  it('should boost an open contract the seller has an award signal for, and leave one without signals unboosted', async () => {
    const open = () =>
      t.buyer.client.contracts.create({
        title: 'Proofread a README',
        tags: [t.tag],
        budget: { amount: '5', currency: 'CREDIT' },
        deadline: new Date(Date.now() + 24 * 3600 * 1000),
        acceptanceCriteria: 'No typos left',
        verificationMode: 'auto',
      });
    const [signalled, quiet] = [await open(), await open()];
    await t.buyer.client.telemetry.recordMatchingSignal({ signal: 'award', contractId: signalled.contract_id, sellerId: t.seller.agentId });
    const recs = await t.seller.client.recommendations.contractsFor(t.seller.agentId, { limit: 50, explorationRate: 0 });
    const entry = (id: string) => recs.data.find((c) => c.contract_id === id);
    // One award today: boost = 1 − e^(−10/10) (telemetry README, "Matching signals").
    expect(entry(signalled.contract_id)?.signals.matching).toBeCloseTo(1 - Math.exp(-1), 2);
    expect(entry(quiet.contract_id)?.signals.matching).toBeNull();
  });
});

describe('GET /v1/telemetry/reports/weekly', () => {
  it('should count the settled contract in this week’s report with sandbox activity', async () => {
    const weekStart = mondayOf(t.recordedAt);
    const report = await t.operator.telemetry.getWeeklyReport({ weekStart, includeSandbox: true });
    expect(report).toMatchObject({ week_start: weekStart, include_sandbox: true });
    expect(report.contracts.created).toBeGreaterThanOrEqual(1);
    expect(report.contracts.settled).toBeGreaterThanOrEqual(1);
    expect(report.settled_volume).toEqual(expect.arrayContaining([expect.objectContaining({ currency: 'CREDIT' })]));
    expect(report.events_recorded).toBeGreaterThanOrEqual(5);
  });

  it('should refuse a day that is not a Monday (400 invalid_week_start) and an agent (403)', async () => {
    const tuesday = new Date(`${mondayOf(t.recordedAt)}T00:00:00Z`);
    tuesday.setUTCDate(tuesday.getUTCDate() - 6);
    expect(await apiError(t.operator.telemetry.getWeeklyReport({ weekStart: tuesday.toISOString().slice(0, 10) }))).toMatchObject({ status: 400, code: 'invalid_week_start' });
    expect(await apiError(t.buyer.client.telemetry.getWeeklyReport())).toMatchObject({ status: 403, code: 'operator_token_required' });
  });
});

describe('GET /v1/telemetry/rollups/market-integrity', () => {
  it('should answer the window ending at as_of', async () => {
    const asOf = t.recordedAt.toISOString();
    const rollup = await t.operator.telemetry.getMarketIntegrityRollup({ window: '1d', asOf });
    expect(rollup.window).toEqual({ window: '1d', from: new Date(t.recordedAt.getTime() - 86_400_000).toISOString(), as_of: asOf });
    expect(typeof rollup.state).toBe('string');
    expect(await apiError(t.seller.client.telemetry.getMarketIntegrityRollup())).toMatchObject({ status: 403 });
  });
});

describe('GET /v1/telemetry/rollups/bytes-to-atoms', () => {
  it('should answer counts and a null share without purchases from contracts', async () => {
    const rollup = await t.operator.telemetry.getBytesToAtomsRollup({ window: 'all', asOf: t.recordedAt });
    expect(rollup.window).toMatchObject({ window: 'all', from: null });
    expect(rollup.purchases).toBeGreaterThanOrEqual(rollup.from_contracts + rollup.from_workflows);
    expectProblem(await http(stack.baseUrl, 'GET', '/v1/telemetry/rollups/bytes-to-atoms?window=2w', { token: stack.operatorToken }), 400, 'validation_failed');
  });
});

describe('GET /v1/telemetry/rollups/coordination', () => {
  it('should answer the coordination counts of the window', async () => {
    const rollup = await t.operator.telemetry.getCoordinationRollup({ window: '7d', asOf: t.recordedAt });
    expect(rollup.window.window).toBe('7d');
    expect(rollup.threads_created).toBeGreaterThanOrEqual(0);
  });
});

describe('GET /v1/metrics/outcomes', () => {
  it('should count the buyer’s settled contract exactly (as_of after the settlement)', async () => {
    const metrics = await t.buyer.client.telemetry.getOutcomeMetrics({ window: '1d', asOf: t.recordedAt, agentId: t.buyer.agentId });
    expect(metrics.agent_id).toBe(t.buyer.agentId);
    expect(metrics.contracts).toMatchObject({ terminal: 1, settled: 1, refunded: 0, disputed: 0, success_rate: 1, refund_rate: 0, dispute_rate: 0 });
    expect(metrics.contracts!.median_time_to_settle_ms).toBeGreaterThanOrEqual(0);
    const before = await t.buyer.client.telemetry.getOutcomeMetrics({ window: '1h', asOf: t.startedAt, agentId: t.buyer.agentId });
    expect(before.contracts).toMatchObject({ terminal: 0, success_rate: null });
  });

  it('should answer merchant figures without contracts, and refuse a bad agent id', async () => {
    const merchant = await t.stranger.client.telemetry.getOutcomeMetrics({ merchantId: 'sandbox-merchant.local' });
    expect(merchant).toMatchObject({ merchant_id: 'sandbox-merchant.local', contracts: null });
    expectProblem(await http(stack.baseUrl, 'GET', '/v1/metrics/outcomes?agent_id=nobody', { token: stack.operatorToken }), 400, 'validation_failed');
  });
});
