import { randomBytes } from 'node:crypto';
import { ISO, MarketHttp, expectProblem, future, money } from './market-http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';

// Insights through the gateway: reputation, verifier reputation, recommendations, price index and
// task tape (formulas in apps/market/README.md). One describe per spec endpoint, each with a
// success and its main refusals (400 bad query, 404 unknown, 401 without auth). Every agent of the
// e2e stack is sandbox, so every contract here is sandbox: the price index needs
// include_sandbox=true to see them and include_sandbox=false shows they are excluded.

let stack: Stack;
let m: MarketHttp;
const TAG = `ins-${randomBytes(4).toString('hex')}`;
const FUTURE = () => future(3_600_000);
let settled: Awaited<ReturnType<MarketHttp['settled']>>;
let settledContract: any;
let openContractId: string;
let listingSeller: RawAgent;
let listingId: string;
let before: string;

beforeAll(async () => {
  stack = await bootStack();
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
  before = new Date().toISOString();
  // A settled contract (budget 100, price 100) and an open one (budget 100), both tagged TAG.
  settled = await m.settled({ contract: { tags: [TAG] } });
  settledContract = await m.contract(settled.contractId);
  const buyer = await m.newAgent('ins-buyer');
  openContractId = (await m.openContract(buyer, { tags: [TAG, 'nlp'], budget: money('100') })).contract_id;
  listingSeller = await m.newAgent('ins-lister');
  listingId = (await m.expectStatus(m.as(listingSeller, 'POST', '/v1/listings', { title: 'Tagged work', tags: [TAG, 'nlp'], price: money('80') }), 201)).listing_id;
});

afterAll(async () => {
  await stack?.stop();
});

const anonymous = (path: string) => fetch(`${stack.baseUrl}${path}`);

describe('GET /v1/reputation/{agent_id}', () => {
  it('answers the seller’s rep-v1 reputation with its receipts', async () => {
    const path = `/v1/reputation/${encodeURIComponent(settled.seller.agentId)}`;
    const rep = await m.expectStatus(m.as(settled.seller, 'GET', `${path}?include_receipts=true`), 200);
    expect(rep).toEqual({
      agent_id: settled.seller.agentId,
      score: expect.any(Number),
      confidence: expect.any(Number),
      window_days: 90,
      as_of: expect.stringMatching(ISO),
      components: {
        settled_as_seller: 1,
        settled_as_buyer: 0,
        verifications_passed: 1,
        verifications_failed: 0,
        disputes_won: 0,
        disputes_lost: 0,
        disputes_split: 0,
        evidence_weight: expect.any(Number),
      },
      volume: [money('100')],
      receipt_ids: [settledContract.receipt_id],
      formula: 'rep-v1',
    });
    // two fresh observations (w 1 and 0.5, x 1) with the prior (0.5, weight 2): 2.5 / 3.5
    expect(rep.score).toBeCloseTo(2.5 / 3.5, 4);
    expect(rep.components.evidence_weight).toBeCloseTo(1.5, 4);

    const plain = await m.expectStatus(m.op('GET', `${path}?window_days=7`), 200);
    expect(plain.window_days).toBe(7);
    expect(plain).not.toHaveProperty('receipt_ids');
    // as of before the settlement: nothing yet, the prior
    const past = await m.expectStatus(m.op('GET', `${path}?as_of=${encodeURIComponent(before)}&include_receipts=true`), 200);
    expect(past).toMatchObject({ score: 0.5, confidence: 0, as_of: before, volume: [], receipt_ids: [], components: { settled_as_seller: 0 } });
  });

  it('refuses an unknown agent (404), bad windows and a future as_of (400) and anonymous callers (401)', async () => {
    expectProblem(await m.op('GET', '/v1/reputation/e2e%3Aagent%3Anobody'), 404, 'agent_not_found');
    const path = `/v1/reputation/${encodeURIComponent(settled.seller.agentId)}`;
    expectProblem(await m.op('GET', `${path}?window_days=0`), 400, 'validation_failed');
    expectProblem(await m.op('GET', `${path}?window_days=3651`), 400, 'validation_failed');
    expectProblem(await m.op('GET', `${path}?as_of=${encodeURIComponent(FUTURE())}`), 400, 'validation_failed');
    expect((await anonymous(path)).status).toBe(401);
  });
});

describe('GET /v1/reputation/verifier/{verifier_id}', () => {
  it('answers the verifier’s reports, latency and the prior without disputes', async () => {
    // buyer-mode contract: the buyer signed the report
    const path = `/v1/reputation/verifier/${encodeURIComponent(settled.buyer.agentId)}`;
    const rep = await m.expectStatus(m.as(settled.buyer, 'GET', path), 200);
    expect(rep).toEqual({
      verifier_id: settled.buyer.agentId,
      score: 0.5,
      confidence: 0,
      window_days: 90,
      as_of: expect.stringMatching(ISO),
      reports: 1,
      passed: 1,
      failed: 0,
      disputed: 0,
      agreements: 0,
      agreement_rate: null,
      median_latency_ms: expect.any(Number),
      formula: 'vrep-v1',
    });
    expect(rep.median_latency_ms).toBeGreaterThanOrEqual(0);
    const past = await m.expectStatus(m.op('GET', `${path}?as_of=${encodeURIComponent(before)}&window_days=1`), 200);
    expect(past).toMatchObject({ reports: 0, median_latency_ms: null, window_days: 1 });
  });

  it('refuses an unknown verifier (404), a bad window (400) and anonymous callers (401)', async () => {
    expectProblem(await m.op('GET', '/v1/reputation/verifier/e2e%3Aagent%3Anobody'), 404, 'verifier_not_found');
    const path = `/v1/reputation/verifier/${encodeURIComponent(settled.buyer.agentId)}`;
    expectProblem(await m.op('GET', `${path}?window_days=abc`), 400, 'validation_failed');
    expectProblem(await m.op('GET', `${path}?as_of=${encodeURIComponent(FUTURE())}`), 400, 'validation_failed');
    expect((await anonymous(path)).status).toBe(401);
  });
});

describe('GET /v1/recommendations/contracts/{contract_id}/sellers', () => {
  const path = () => `/v1/recommendations/contracts/${openContractId}/sellers`;

  it('ranks sellers by the documented signals, deterministically for a request id', async () => {
    const res = await m.expectStatus(m.op('GET', `${path()}?limit=5&exploration_rate=0&request_id=req-ins-1`), 200);
    expect(res.request_id).toBe('req-ins-1');
    expect(res.exploration_slots).toBe(0);
    expect(res.data[0]).toEqual({
      seller_id: listingSeller.agentId,
      score: expect.any(Number),
      rank: 1,
      exploration: false,
      signals: { tag_match: 1, reputation: 0.5, price_fit: 1, recency: expect.any(Number), matching: null },
      listing_id: listingId,
    });
    const ids = res.data.map((s: any) => s.seller_id);
    expect(ids).toContain(settled.seller.agentId);
    expect(ids).not.toContain(settled.contract.buyer_id); // never the contract's buyer

    const a = await m.expectStatus(m.op('GET', `${path()}?exploration_rate=1&request_id=req-ins-2`), 200);
    const b = await m.expectStatus(m.op('GET', `${path()}?exploration_rate=1&request_id=req-ins-2`), 200);
    expect(b).toEqual(a);
    // without request_id: the request's id (the caller's X-Request-Id here) seeds and is echoed
    const viaHeader = await m.expectStatus(m.op('GET', path(), undefined, { 'x-request-id': 'req-ins-header' }), 200);
    expect(viaHeader.request_id).toBe('req-ins-header');
  });

  it('refuses a bad limit or exploration_rate (400), an unknown contract (404) and anonymous callers (401)', async () => {
    expectProblem(await m.op('GET', `${path()}?limit=0`), 400, 'validation_failed');
    expectProblem(await m.op('GET', `${path()}?limit=51`), 400, 'validation_failed');
    expectProblem(await m.op('GET', `${path()}?exploration_rate=1.5`), 400, 'validation_failed');
    expectProblem(await m.op('GET', '/v1/recommendations/contracts/ctr_00000000-0000-7000-8000-000000000000/sellers'), 404, 'contract_not_found');
    expect((await anonymous(path())).status).toBe(401);
  });
});

describe('GET /v1/recommendations/sellers/{seller_id}/contracts', () => {
  const path = () => `/v1/recommendations/sellers/${encodeURIComponent(listingSeller.agentId)}/contracts`;

  it('proposes open contracts the seller can still offer on', async () => {
    const res = await m.expectStatus(m.as(listingSeller, 'GET', `${path()}?exploration_rate=0&request_id=req-ins-3`), 200);
    expect(res).toEqual({
      data: [{ contract_id: openContractId, score: expect.any(Number), rank: 1, exploration: false, signals: expect.objectContaining({ tag_match: 1, price_fit: 1 }) }],
      exploration_slots: 0,
      request_id: 'req-ins-3',
    });
    // once it offered, the contract is no longer proposed to it
    await m.submitOffer(listingSeller, openContractId, '80');
    expect((await m.expectStatus(m.as(listingSeller, 'GET', path()), 200)).data).toEqual([]);
  });

  it('refuses an unknown seller (404), a bad limit (400) and anonymous callers (401)', async () => {
    expectProblem(await m.op('GET', '/v1/recommendations/sellers/e2e%3Aagent%3Anobody/contracts'), 404, 'agent_not_found');
    expectProblem(await m.op('GET', `${path()}?limit=abc`), 400, 'validation_failed');
    expect((await anonymous(path())).status).toBe(401);
  });
});

describe('GET /v1/price-index', () => {
  it('gives the clearing prices per tag, sandbox contracts unless include_sandbox=false', async () => {
    const res = await m.expectStatus(m.op('GET', `/v1/price-index?tag=${TAG}&include_sandbox=true`), 200);
    expect(res).toEqual({
      window: 'all',
      as_of: expect.stringMatching(ISO),
      include_sandbox: true,
      data: [{ tag: TAG, currency: 'CREDIT', count: 1, median: '100', p25: '100', p75: '100', min: '100', max: '100' }],
    });
    // Every e2e contract is sandbox. Issue 13: on a sandbox exchange the default counts them (was
    // left out by default); include_sandbox=false leaves them out.
    const byDefault = await m.expectStatus(m.as(settled.seller, 'GET', `/v1/price-index?tag=${TAG}`), 200);
    expect({ include_sandbox: byDefault.include_sandbox, data: byDefault.data }).toEqual({ include_sandbox: true, data: res.data });
    expect((await m.expectStatus(m.as(settled.seller, 'GET', `/v1/price-index?tag=${TAG}&include_sandbox=false`), 200)).data).toEqual([]);
    expect((await m.expectStatus(m.op('GET', `/v1/price-index?window=1h&include_sandbox=true`), 200)).data.map((e: any) => e.tag)).toContain(TAG);
    const past = await m.expectStatus(m.op('GET', `/v1/price-index?include_sandbox=true&as_of=${encodeURIComponent(before)}`), 200);
    expect(past).toMatchObject({ as_of: before, data: [] });
  });

  it('refuses an unknown window and a future as_of (400) and anonymous callers (401)', async () => {
    expectProblem(await m.op('GET', '/v1/price-index?window=2h'), 400, 'validation_failed');
    expectProblem(await m.op('GET', `/v1/price-index?as_of=${encodeURIComponent(FUTURE())}`), 400, 'validation_failed');
    expect((await anonymous('/v1/price-index')).status).toBe(401);
  });
});

describe('GET /v1/task-tape', () => {
  it('counts opened, awarded and settled contracts with their volumes', async () => {
    const tape = await m.expectStatus(m.op('GET', '/v1/task-tape'), 200);
    expect(tape).toEqual({
      window: 'all',
      as_of: expect.stringMatching(ISO),
      include_sandbox: true,
      opened: { count: 2, volume: [money('200')] },
      awarded: { count: 1, volume: [money('100')] },
      settled: { count: 1, volume: [money('100')] },
    });
    const noSandbox = await m.expectStatus(m.op('GET', '/v1/task-tape?window=1d&include_sandbox=false'), 200);
    expect(noSandbox).toMatchObject({ window: '1d', include_sandbox: false, opened: { count: 0, volume: [] }, awarded: { count: 0, volume: [] }, settled: { count: 0, volume: [] } });
    const past = await m.expectStatus(m.op('GET', `/v1/task-tape?window=7d&as_of=${encodeURIComponent(before)}`), 200);
    expect(past).toMatchObject({ as_of: before, opened: { count: 0 } });
  });

  it('refuses window=30d and a future as_of (400) and anonymous callers (401)', async () => {
    expectProblem(await m.op('GET', '/v1/task-tape?window=30d'), 400, 'validation_failed');
    expectProblem(await m.op('GET', `/v1/task-tape?as_of=${encodeURIComponent(FUTURE())}`), 400, 'validation_failed');
    expect((await anonymous('/v1/task-tape')).status).toBe(401);
  });
});
