import { ISO, MarketHttp, SHA, expectProblem, future, money, newKey } from './market-http';
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

/** Walks a list with `limit` until next_cursor is null, returning every id seen (in order). */
async function walk(path: string, idField: string, limit: number, as?: RawAgent): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const sep = path.includes('?') ? '&' : '?';
    const url = `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page: any = await m.expectStatus(as ? m.as(as, 'GET', url) : m.op('GET', url), 200);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    ids.push(...page.data.map((x: any) => x[idField]));
    cursor = page.next_cursor;
    if (!cursor) return ids;
  }
  throw new Error('pagination did not end');
}

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

describe('POST /v1/contracts/{contract_id}/offers', () => {
  it('submits an offer and refuses the rule breakers', async () => {
    const buyer = await m.newAgent('e-offer-buyer');
    const seller = await m.newAgent('e-offer-seller');
    const c = await m.openContract(buyer, { budget: money('50') });
    const eta = future(3_600_000);
    const o = await m.expectStatus(m.as(seller, 'POST', `/v1/contracts/${c.contract_id}/offers`, { price: money('40'), eta, terms: 'two revisions' }), 201);
    expect(o).toEqual({
      offer_id: expect.stringMatching(/^ofr_/),
      contract_id: c.contract_id,
      seller_id: seller.agentId,
      price: money('40'),
      eta: new Date(eta).toISOString(),
      terms: 'two revisions',
      status: 'submitted',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expectProblem(await m.offer(seller, c.contract_id, '30'), 409, 'offer_exists');
    const other = await m.newAgent('e-offer-other');
    expectProblem(await m.offer(other, c.contract_id, '50.000001'), 400, 'price_exceeds_budget');
    expectProblem(await m.offer(other, c.contract_id, '10', { price: money('10', 'USD') }), 400, 'currency_mismatch');
    expectProblem(await m.offer(other, c.contract_id, '10', { eta: new Date(Date.now() - 1000).toISOString() }), 400, 'invalid_eta');
    expectProblem(await m.offer(other, c.contract_id, '10', { terms: 'x'.repeat(20001) }), 400, 'validation_failed');
    expectProblem(await m.offer(other, `ctr_${UNKNOWN}`, '10'), 404, 'contract_not_found');
    // After withdrawing, the seller may offer again.
    await m.expectStatus(m.as(seller, 'POST', `/v1/offers/${o.offer_id}/withdraw`, {}), 200);
    await m.expectStatus(m.offer(seller, c.contract_id, '35'), 201);
  });

  it('replays an offer with the same key (Idempotent-Replayed), 422 for another price', async () => {
    const buyer = await m.newAgent('e-offer-idem-buyer');
    const seller = await m.newAgent('e-offer-idem-seller');
    const c = await m.openContract(buyer);
    const key = newKey('ofr');
    const first = await m.offer(seller, c.contract_id, '20', {}, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const again = await m.offer(seller, c.contract_id, '20', { eta: first.body.eta }, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.offer_id).toBe(first.body.offer_id);
    expectProblem(await m.offer(seller, c.contract_id, '21', { eta: first.body.eta }, { 'idempotency-key': key }), 422, 'idempotency_key_reused');
  });
});

describe('GET /v1/contracts/{contract_id}/offers', () => {
  it('filters by seller_id and status, paginated; unknown contract 404', async () => {
    const buyer = await m.newAgent('e-offers-buyer');
    const sellers = [await m.newAgent('e-os-1'), await m.newAgent('e-os-2'), await m.newAgent('e-os-3')];
    const c = await m.openContract(buyer);
    const offers = [];
    for (const s of sellers) offers.push(await m.submitOffer(s, c.contract_id, '10'));
    await m.expectStatus(m.as(sellers[2], 'POST', `/v1/offers/${offers[2].offer_id}/withdraw`, {}), 200);
    const path = `/v1/contracts/${c.contract_id}/offers`;
    expect((await walk(path, 'offer_id', 1)).sort()).toEqual(offers.map((o) => o.offer_id).sort());
    const bySeller = await m.expectStatus(m.op('GET', `${path}?seller_id=${encodeURIComponent(sellers[0].agentId)}`), 200);
    expect(bySeller.data.map((o: any) => o.offer_id)).toEqual([offers[0].offer_id]);
    const withdrawn = await m.expectStatus(m.as(buyer, 'GET', `${path}?status=withdrawn`), 200);
    expect(withdrawn.data.map((o: any) => o.offer_id)).toEqual([offers[2].offer_id]);
    const submitted = await m.expectStatus(m.op('GET', `${path}?status=submitted`), 200);
    expect(submitted.data.map((o: any) => o.offer_id).sort()).toEqual([offers[0].offer_id, offers[1].offer_id].sort());
    expectProblem(await m.op('GET', `/v1/contracts/ctr_${UNKNOWN}/offers`), 404, 'contract_not_found');
  });
});

describe('GET /v1/offers/{offer_id}', () => {
  it('reads an offer; unknown 404 offer_not_found', async () => {
    const buyer = await m.newAgent('e-offer-get-b');
    const seller = await m.newAgent('e-offer-get-s');
    const c = await m.openContract(buyer);
    const o = await m.submitOffer(seller, c.contract_id, '10');
    expect(await m.expectStatus(m.as(buyer, 'GET', `/v1/offers/${o.offer_id}`), 200)).toEqual(o);
    expectProblem(await m.op('GET', `/v1/offers/ofr_${UNKNOWN}`), 404, 'offer_not_found');
  });
});

describe('POST /v1/offers/{offer_id}/withdraw', () => {
  it('withdraws a submitted offer once (then 409 invalid_state); unknown 404', async () => {
    const buyer = await m.newAgent('e-wd-b');
    const seller = await m.newAgent('e-wd-s');
    const c = await m.openContract(buyer);
    const o = await m.submitOffer(seller, c.contract_id, '10');
    const w = await m.expectStatus(m.as(seller, 'POST', `/v1/offers/${o.offer_id}/withdraw`), 200);
    expect(w).toMatchObject({ offer_id: o.offer_id, status: 'withdrawn' });
    expectProblem(await m.as(seller, 'POST', `/v1/offers/${o.offer_id}/withdraw`, {}), 409, 'invalid_state');
    expectProblem(await m.award(c.contract_id, o.offer_id), 409, 'invalid_state');
    expectProblem(await m.op('POST', `/v1/offers/ofr_${UNKNOWN}/withdraw`, {}), 404, 'offer_not_found');
  });
});

describe('POST /v1/contracts/{contract_id}/award/{offer_id}', () => {
  it('award with insufficient funds: 409 insufficient_funds and nothing changed; after a top-up the award succeeds', async () => {
    const buyer = await m.newAgent('e-poor-buyer');
    const seller = await m.newAgent('e-poor-seller');
    await m.fund(buyer, '30');
    const c = await m.openContract(buyer, { budget: money('50') });
    const o = await m.submitOffer(seller, c.contract_id, '50');
    const key = newKey('poor-award');
    const refusal = await m.award(c.contract_id, o.offer_id, { idempotency_key: key });
    expectProblem(refusal, 409, 'insufficient_funds');
    expect(await m.contract(c.contract_id)).toEqual(c);
    expect((await m.expectStatus(m.op('GET', `/v1/offers/${o.offer_id}`), 200)).status).toBe('submitted');
    await m.expectBalance(buyer, { available: '30', held: '0' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    // A new attempt after the buyer tops up is a new step: even with the same key the refusal is
    // not replayed (a refused market request stores no outcome).
    await m.fund(buyer, '20');
    const retried = await m.award(c.contract_id, o.offer_id, { idempotency_key: key });
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const awarded = await m.expectStatus(retried, 200);
    expect(awarded).toMatchObject({ status: 'awarded', price: money('50') });
    await m.expectBalance(buyer, { available: '0', held: '50' });
  });

  it('refuses an offer of another contract (404 offer_not_found), a second award (409) and unknown ids (404)', async () => {
    const buyer = await m.newAgent('e-aw-b');
    const seller = await m.newAgent('e-aw-s');
    await m.fund(buyer, '100');
    const c1 = await m.openContract(buyer, { budget: money('10') });
    const c2 = await m.openContract(buyer, { budget: money('10') });
    const o1 = await m.submitOffer(seller, c1.contract_id, '10');
    const o2 = await m.submitOffer(seller, c2.contract_id, '10');
    expectProblem(await m.award(c1.contract_id, o2.offer_id), 404, 'offer_not_found');
    expectProblem(await m.award(c1.contract_id, `ofr_${UNKNOWN}`), 404, 'offer_not_found');
    expectProblem(await m.award(`ctr_${UNKNOWN}`, o1.offer_id), 404, 'contract_not_found');
    await m.expectStatus(m.award(c1.contract_id, o1.offer_id, {}), 200);
    const again = expectProblem(await m.award(c1.contract_id, o1.offer_id), 409, 'invalid_state');
    expect(again).toMatchObject({ current: 'awarded', wanted: 'awarded' });
    await m.expectBalance(buyer, { available: '90', held: '10' });
  });

  it('replays an award with the same key without a second hold', async () => {
    const buyer = await m.newAgent('e-aw-idem-b');
    const seller = await m.newAgent('e-aw-idem-s');
    await m.fund(buyer, '100');
    const c = await m.openContract(buyer, { budget: money('40') });
    const o = await m.submitOffer(seller, c.contract_id, '40');
    const key = newKey('award');
    const first = await m.award(c.contract_id, o.offer_id, { idempotency_key: key });
    const again = await m.award(c.contract_id, o.offer_id, { idempotency_key: key });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    await m.expectBalance(buyer, { available: '60', held: '40' });
  });
});

describe('POST /v1/contracts/{contract_id}/results', () => {
  it('submits a result (payload any JSON, artifact refs); validates refs and sizes; 409 unless awarded', async () => {
    const { seller, contractId } = await m.awarded({ funds: '100', price: '100' });
    expectProblem(await m.result(seller, contractId, { artifact_refs: ['sha256:XYZ'] }), 400, 'validation_failed');
    expectProblem(await m.result(seller, contractId, { summary: '' }), 400, 'validation_failed');
    expectProblem(await m.result(seller, contractId, { artifact_refs: Array.from({ length: 101 }, () => SHA('b')) }), 400, 'validation_failed');
    // 256 KiB serialized is the limit: one byte more is refused.
    expectProblem(await m.result(seller, contractId, { payload: 'x'.repeat(256 * 1024 - 1) }), 400, 'validation_failed');
    const r = await m.expectStatus(m.result(seller, contractId, { payload: [1, 'two', { three: 3 }] }), 201);
    expect(r).toEqual({
      result_id: expect.stringMatching(/^res_/),
      contract_id: contractId,
      seller_id: seller.agentId,
      summary: 'Ten summaries attached.',
      artifact_refs: [SHA('a')],
      payload: [1, 'two', { three: 3 }],
      status: 'submitted',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    // Delivered: a second result waits for a verdict.
    expectProblem(await m.result(seller, contractId), 409, 'invalid_state');
    expectProblem(await m.result(seller, `ctr_${UNKNOWN}`), 404, 'contract_not_found');
  });

  it('a result without payload has payload null; a payload of exactly 256 KiB serialized is accepted as sent', async () => {
    const { seller, contractId } = await m.awarded({ funds: '10', price: '10', contract: { budget: money('10') } });
    const r = await m.submitResult(seller, contractId, { artifact_refs: [] });
    expect(r).toMatchObject({ payload: null, artifact_refs: [] });
    const b = await m.awarded({ funds: '10', price: '10', contract: { budget: money('10') } });
    const exact = 'y'.repeat(256 * 1024 - 2); // + 2 quotes = 262144 bytes of JSON
    const big = await m.submitResult(b.seller, b.contractId, { payload: exact });
    expect(big.payload).toBe(exact);
  });
});

describe('GET /v1/contracts/{contract_id}/results', () => {
  it('filters by seller_id and status, paginated; unknown contract 404', async () => {
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '100', price: '100' });
    await m.expectStatus(m.verify(buyer, contractId, result.result_id, 'fail'), 201);
    const second = await m.submitResult(seller, contractId);
    const path = `/v1/contracts/${contractId}/results`;
    expect((await walk(path, 'result_id', 1)).sort()).toEqual([result.result_id, second.result_id].sort());
    const rejected = await m.expectStatus(m.op('GET', `${path}?status=rejected`), 200);
    expect(rejected.data.map((r: any) => r.result_id)).toEqual([result.result_id]);
    const bySeller = await m.expectStatus(m.op('GET', `${path}?seller_id=${encodeURIComponent(seller.agentId)}&status=submitted`), 200);
    expect(bySeller.data.map((r: any) => r.result_id)).toEqual([second.result_id]);
    const byBuyer = await m.expectStatus(m.op('GET', `${path}?seller_id=${encodeURIComponent(buyer.agentId)}`), 200);
    expect(byBuyer.data).toEqual([]);
    expectProblem(await m.op('GET', `/v1/contracts/ctr_${UNKNOWN}/results`), 404, 'contract_not_found');
  });
});

describe('GET /v1/results/{result_id}', () => {
  it('reads a result; unknown 404 result_not_found', async () => {
    const { seller, result } = await m.delivered({ funds: '10', price: '10', contract: { budget: money('10') } });
    expect(await m.expectStatus(m.as(seller, 'GET', `/v1/results/${result.result_id}`), 200)).toEqual(result);
    expectProblem(await m.op('GET', `/v1/results/res_${UNKNOWN}`), 404, 'result_not_found');
  });
});

describe('POST /v1/verifiers', () => {
  it('registers a verifier profile once (409 verifier_exists); unknown agent 404', async () => {
    const v = await m.newAgent('e-verifier');
    const profile = await m.expectStatus(m.as(v, 'POST', '/v1/verifiers', { name: 'Checker', description: 'Strict', tags: ['nlp'], fee: money('2') }), 201);
    expect(profile).toEqual({
      verifier_id: v.agentId,
      name: 'Checker',
      description: 'Strict',
      tags: ['nlp'],
      fee: money('2'),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expectProblem(await m.as(v, 'POST', '/v1/verifiers', { name: 'Again' }), 409, 'verifier_exists');
    expectProblem(await m.op('POST', '/v1/verifiers', { verifier_id: 'e2e-nobody:agent:ghost', name: 'Ghost' }), 404, 'agent_not_found');
    expectProblem(await m.as(v, 'POST', '/v1/verifiers', { name: '' }), 400, 'validation_failed');
  });
});

describe('GET /v1/verifiers', () => {
  it('lists verifiers, paginated', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const v = await m.newAgent(`e-vl-${i}`);
      await m.expectStatus(m.as(v, 'POST', '/v1/verifiers', { name: `V${i}` }), 201);
      ids.push(v.agentId);
    }
    const seen = await walk('/v1/verifiers', 'verifier_id', 2);
    for (const id of ids) expect(seen).toContain(id);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('POST /v1/verifier-listings', () => {
  it('creates a verifier listing; needs a profile (404 verifier_not_found) and a turnaround', async () => {
    const v = await m.newAgent('e-vlisting');
    const body = { title: 'Fast check', tags: ['nlp'], price: money('3'), turnaround: 'PT2H' };
    expectProblem(await m.as(v, 'POST', '/v1/verifier-listings', body), 404, 'verifier_not_found');
    await m.expectStatus(m.as(v, 'POST', '/v1/verifiers', { name: 'VL' }), 201);
    const l = await m.expectStatus(m.as(v, 'POST', '/v1/verifier-listings', body), 201);
    expect(l).toEqual({
      verifier_listing_id: expect.stringMatching(/^vrf_/),
      verifier_id: v.agentId,
      title: 'Fast check',
      tags: ['nlp'],
      price: money('3'),
      turnaround: 'PT2H',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expectProblem(await m.as(v, 'POST', '/v1/verifier-listings', { ...body, turnaround: '2 hours' }), 400, 'invalid_turnaround');
    const { turnaround: _t, ...noTurnaround } = body;
    expectProblem(await m.as(v, 'POST', '/v1/verifier-listings', noTurnaround), 400, 'validation_failed');
  });
});

describe('GET /v1/verifier-listings', () => {
  it('filters by verifier_id, paginated', async () => {
    const v = await m.newAgent('e-vls');
    await m.expectStatus(m.as(v, 'POST', '/v1/verifiers', { name: 'VLS' }), 201);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await m.expectStatus(m.as(v, 'POST', '/v1/verifier-listings', { title: `L${i}`, price: money('1'), turnaround: 'P1D' }), 201)).verifier_listing_id);
    const mine = await walk(`/v1/verifier-listings?verifier_id=${encodeURIComponent(v.agentId)}`, 'verifier_listing_id', 2);
    expect(mine.sort()).toEqual(ids.sort());
  });
});
