import { ISO, MarketHttp, expectProblem, future, money, newKey } from './market-http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';

// Every market endpoint's success path and main refusals (validation 400, unknown 404, state 409),
// the filters and pagination of each list, and the optional idempotency key (body or header):
// a replay answers the stored outcome with Idempotent-Replayed: true, the key with another
// payload is 422 idempotency_key_reused. One describe per spec endpoint (tools/spec-coverage).

let stack: Stack;
let m: MarketHttp;
const UNKNOWN = '00000000-0000-7000-8000-000000000000';

beforeAll(async () => {
  stack = await bootStack();
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

const walk = (path: string, idField: string, limit: number, as?: RawAgent) => m.walk(path, idField, limit, as);

describe('GET /v1/telemetry/verification', () => {
  // First in the file: the stack has no report yet.
  it('counts reports, pass rate and median latency per window', async () => {
    const empty = await m.expectStatus(m.op('GET', '/v1/telemetry/verification'), 200);
    expect(empty).toEqual({ window: 'all', reports: 0, passed: 0, failed: 0, pass_rate: null, median_latency_ms: null });

    const a = await m.delivered({ funds: '10', price: '10', contract: { budget: money('10') } });
    await m.expectStatus(m.verify(a.buyer, a.contractId, a.result.result_id, 'fail'), 201);
    const second = await m.submitResult(a.seller, a.contractId);
    await m.expectStatus(m.verify(a.buyer, a.contractId, second.result_id, 'pass'), 201);
    const b = await m.delivered({ funds: '10', price: '10', contract: { budget: money('10') } });
    await m.expectStatus(m.verify(b.buyer, b.contractId, b.result.result_id, 'pass'), 201);

    for (const window of ['all', '1h', '1d', '7d']) {
      const metrics = await m.expectStatus(m.op('GET', `/v1/telemetry/verification?window=${window}`), 200);
      expect(metrics).toMatchObject({ window, reports: 3, passed: 2, failed: 1 });
      expect(metrics.pass_rate).toBeCloseTo(2 / 3, 10);
      expect(Number.isInteger(metrics.median_latency_ms)).toBe(true);
      expect(metrics.median_latency_ms).toBeGreaterThanOrEqual(0);
      expect(metrics.median_latency_ms).toBeLessThan(60_000);
    }
    expectProblem(await m.op('GET', '/v1/telemetry/verification?window=2h'), 400, 'validation_failed');
  });
});

describe('POST /v1/contracts', () => {
  it('creates a contract with defaults (description "", mode buyer) and deduplicated tags', async () => {
    const buyer = await m.newAgent('e-buyer');
    const deadline = future(2 * 86_400_000);
    const c = await m.expectStatus(
      m.as(buyer, 'POST', '/v1/contracts', { title: 'T', tags: ['a', 'b.c', 'a', 'd_e-f'], budget: money('12.345678'), deadline, acceptance_criteria: 'ok' }),
      201,
    );
    expect(c).toEqual({
      contract_id: expect.stringMatching(/^ctr_/),
      buyer_id: buyer.agentId,
      title: 'T',
      description: '',
      tags: ['a', 'b.c', 'd_e-f'],
      budget: money('12.345678'),
      deadline: new Date(deadline).toISOString(),
      acceptance_criteria: 'ok',
      verification_mode: 'buyer',
      verifier_id: null,
      listing_id: null,
      status: 'open',
      seller_id: null,
      awarded_offer_id: null,
      price: null,
      hold_id: null,
      escrow_status: 'none',
      receipt_id: null,
      disputed_from: null,
      cancel_reason: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      awarded_at: null,
      settled_at: null,
      buyer_private: false,
      buyer_alias: null,
      template_id: null,
      work_product_template_id: null,
      fixture_id: null,
      resale_of: null,
      resale_review: null,
      // The e2e stack runs EXCHANGE_ENV=sandbox: every contract is a sandbox one.
      sandbox: true,
      corrected_at: null,
      correction_receipt_id: null,
      correction_reason: null,
      labels: {},
      input_refs: [],
    });
  });

  it('refuses invalid bodies with their codes', async () => {
    const buyer = await m.newAgent('e-invalid');
    const bad = (overrides: Record<string, unknown>) => m.createContract(buyer, overrides);
    expectProblem(await bad({ title: '' }), 400, 'validation_failed');
    expectProblem(await bad({ title: 'x'.repeat(201) }), 400, 'validation_failed');
    expectProblem(await bad({ acceptance_criteria: '' }), 400, 'validation_failed');
    expectProblem(await bad({ tags: ['Upper'] }), 400, 'validation_failed');
    expectProblem(await bad({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), 400, 'validation_failed');
    expectProblem(await bad({ budget: money('0') }), 400, 'invalid_amount');
    expectProblem(await bad({ deadline: new Date(Date.now() - 1000).toISOString() }), 400, 'invalid_deadline');
    expectProblem(await bad({ verification_mode: 'verifier' }), 400, 'verifier_required');
    expectProblem(await bad({ verification_mode: 'verifier', verifier_id: buyer.agentId }), 400, 'verifier_is_buyer');
    const unregistered = await m.newAgent('e-not-verifier');
    expectProblem(await bad({ verification_mode: 'verifier', verifier_id: unregistered.agentId }), 404, 'verifier_not_found');
    expectProblem(await bad({ verification_mode: 'buyer', verifier_id: unregistered.agentId }), 400, 'verifier_not_allowed');
    expectProblem(await bad({ listing_id: `lst_${UNKNOWN}` }), 404, 'listing_not_found');
    expectProblem(await bad({ surprise: true }), 400, 'validation_failed');
    const list = await m.expectStatus(m.op('GET', `/v1/contracts?buyer_id=${encodeURIComponent(buyer.agentId)}`), 200);
    expect(list.data).toEqual([]);
  });

  it('links an existing listing', async () => {
    const seller = await m.newAgent('e-lst-seller');
    const buyer = await m.newAgent('e-lst-buyer');
    const listing = await m.expectStatus(m.as(seller, 'POST', '/v1/listings', { title: 'Translations', price: money('5') }), 201);
    const c = await m.openContract(buyer, { listing_id: listing.listing_id });
    expect(c.listing_id).toBe(listing.listing_id);
  });

  it('replays with the same idempotency key (body or header), 422 for another payload', async () => {
    const buyer = await m.newAgent('e-idem');
    const key = newKey('ctr');
    const body = m.contractBody({ title: 'Idempotent' });
    const first = await m.as(buyer, 'POST', '/v1/contracts', { ...body, idempotency_key: key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await m.as(buyer, 'POST', '/v1/contracts', { ...body, idempotency_key: key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectProblem(await m.as(buyer, 'POST', '/v1/contracts', { ...body, title: 'Other', idempotency_key: key }), 422, 'idempotency_key_reused');
    const headerKey = newKey('ctr-h');
    const h1 = await m.as(buyer, 'POST', '/v1/contracts', body, { 'idempotency-key': headerKey });
    const h2 = await m.as(buyer, 'POST', '/v1/contracts', body, { 'idempotency-key': headerKey });
    expect([h1.status, h2.status]).toEqual([201, 201]);
    expect(h2.headers.get('idempotent-replayed')).toBe('true');
    expect(h2.body.contract_id).toBe(h1.body.contract_id);
    // Body and header disagreeing, or a malformed key, are refused before anything is created.
    expectProblem(await m.as(buyer, 'POST', '/v1/contracts', { ...body, idempotency_key: 'k-a' }, { 'idempotency-key': 'k-b' }), 400, 'idempotency_key_mismatch');
    expectProblem(await m.as(buyer, 'POST', '/v1/contracts', body, { 'idempotency-key': 'x'.repeat(256) }), 400, 'invalid_idempotency_key');
    const list = await m.expectStatus(m.op('GET', `/v1/contracts?buyer_id=${encodeURIComponent(buyer.agentId)}`), 200);
    expect(list.data).toHaveLength(2);
  });
});

describe('GET /v1/contracts', () => {
  it('filters by buyer_id, seller_id and status, newest first, paginated without overlap', async () => {
    const buyer = await m.newAgent('e-list-buyer');
    const seller = await m.newAgent('e-list-seller');
    await m.fund(buyer, '100');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await m.openContract(buyer, { title: `c${i}`, budget: money('10') })).contract_id);
    const offer = await m.submitOffer(seller, ids[1], '10');
    await m.expectStatus(m.award(ids[1], offer.offer_id), 200);

    const all = await walk(`/v1/contracts?buyer_id=${encodeURIComponent(buyer.agentId)}`, 'contract_id', 2);
    expect(all).toEqual([...ids].reverse());
    const bySeller = await m.expectStatus(m.op('GET', `/v1/contracts?seller_id=${encodeURIComponent(seller.agentId)}`), 200);
    expect(bySeller.data.map((c: any) => c.contract_id)).toEqual([ids[1]]);
    const awarded = await m.expectStatus(m.op('GET', `/v1/contracts?buyer_id=${encodeURIComponent(buyer.agentId)}&status=awarded`), 200);
    expect(awarded.data.map((c: any) => c.contract_id)).toEqual([ids[1]]);
    const open = await m.expectStatus(m.as(buyer, 'GET', `/v1/contracts?buyer_id=${encodeURIComponent(buyer.agentId)}&status=open`), 200);
    expect(open.data).toHaveLength(4);
    expectProblem(await m.op('GET', '/v1/contracts?status=bogus'), 400, 'validation_failed');
    expectProblem(await m.op('GET', '/v1/contracts?limit=0'), 400, 'validation_failed');
    expectProblem(await m.op('GET', '/v1/contracts?cursor=not-a-cursor'), 400, 'invalid_cursor');
  });
});

describe('GET /v1/contracts/{contract_id}', () => {
  it('reads a contract (any caller); unknown 404 contract_not_found', async () => {
    const buyer = await m.newAgent('e-get');
    const other = await m.newAgent('e-get-other');
    const c = await m.openContract(buyer);
    expect(await m.expectStatus(m.as(other, 'GET', `/v1/contracts/${c.contract_id}`), 200)).toEqual(c);
    expectProblem(await m.op('GET', `/v1/contracts/ctr_${UNKNOWN}`), 404, 'contract_not_found');
  });
});

describe('POST /v1/listings', () => {
  it('creates a listing; validates turnaround (400 invalid_turnaround), price and title', async () => {
    const seller = await m.newAgent('e-listing');
    const l = await m.expectStatus(m.as(seller, 'POST', '/v1/listings', { title: 'Code review', description: 'Any TS repo', tags: ['code', 'ts'], price: money('25'), turnaround: 'P1DT12H' }), 201);
    expect(l).toEqual({
      listing_id: expect.stringMatching(/^lst_/),
      seller_id: seller.agentId,
      title: 'Code review',
      description: 'Any TS repo',
      tags: ['code', 'ts'],
      price: money('25'),
      turnaround: 'P1DT12H',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const noTurnaround = await m.expectStatus(m.as(seller, 'POST', '/v1/listings', { title: 'Quick', price: money('1') }), 201);
    expect(noTurnaround).toMatchObject({ turnaround: null, description: '', tags: [] });
    for (const turnaround of ['P', 'PT', '1D', 'P1H', 'PT1.5H']) {
      expectProblem(await m.as(seller, 'POST', '/v1/listings', { title: 'Bad', price: money('1'), turnaround }), 400, 'invalid_turnaround');
    }
    expectProblem(await m.as(seller, 'POST', '/v1/listings', { title: '', price: money('1') }), 400, 'validation_failed');
    expectProblem(await m.as(seller, 'POST', '/v1/listings', { title: 'Free', price: money('0') }), 400, 'invalid_amount');
  });
});

describe('GET /v1/listings', () => {
  it('filters by tag, paginated', async () => {
    const seller = await m.newAgent('e-listings');
    const tag = `tag-${newKey('x').toLowerCase()}`.slice(0, 40);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await m.expectStatus(m.as(seller, 'POST', '/v1/listings', { title: `L${i}`, tags: [tag], price: money('2') }), 201)).listing_id);
    await m.expectStatus(m.as(seller, 'POST', '/v1/listings', { title: 'Other', tags: ['unrelated'], price: money('2') }), 201);
    const tagged = await walk(`/v1/listings?tag=${tag}`, 'listing_id', 2, seller);
    expect(tagged.sort()).toEqual([...ids].sort());
    const all = await m.expectStatus(m.op('GET', '/v1/listings?limit=100'), 200);
    expect(all.data.length).toBeGreaterThanOrEqual(4);
  });
});

describe('GET /v1/listings?tag&limit&cursor (created together)', () => {
  it('pages through listings created at the same moment without a duplicate or a gap', async () => {
    const sellers = await Promise.all(Array.from({ length: 4 }, (_, i) => m.newAgent(`e-burst-${i}`)));
    const tag = `burst-${newKey('t').toLowerCase()}`.slice(0, 40);
    const created = await Promise.all(
      Array.from({ length: 16 }, (_, i) => m.expectStatus(m.as(sellers[i % 4], 'POST', '/v1/listings', { title: `B${i}`, tags: [tag], price: money('1') }), 201)),
    );
    for (const limit of [1, 3, 5]) {
      const seen = await walk(`/v1/listings?tag=${tag}`, 'listing_id', limit);
      expect(seen).toHaveLength(16);
      expect(new Set(seen).size).toBe(16);
      expect([...seen].sort()).toEqual(created.map((l) => l.listing_id).sort());
    }
  });
});

describe('GET /v1/listings/{listing_id}', () => {
  it('reads a listing; unknown 404 listing_not_found', async () => {
    const seller = await m.newAgent('e-listing-get');
    const l = await m.expectStatus(m.as(seller, 'POST', '/v1/listings', { title: 'Read me', price: money('3') }), 201);
    expect(await m.expectStatus(m.op('GET', `/v1/listings/${l.listing_id}`), 200)).toEqual(l);
    expectProblem(await m.op('GET', `/v1/listings/lst_${UNKNOWN}`), 404, 'listing_not_found');
  });
});
