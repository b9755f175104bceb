import { ISO, MarketHttp, SHA, expectProblem, future, money, newKey } from './market-http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';

// The trade endpoints end to end (offers, award, results, verifiers; contracts, listings and
// telemetry: market-endpoints.e2e.spec.ts): each one's success path and main refusals (400, 404,
// 409), list filters and pagination, and the optional idempotency key (replay → stored outcome
// with Idempotent-Replayed: true; another payload → 422 idempotency_key_reused). One describe per
// spec endpoint (tools/spec-coverage).

let stack: Stack;
let m: MarketHttp;
const UNKNOWN = '00000000-0000-7000-8000-000000000000';

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

const walk = (path: string, idField: string, limit: number, as?: RawAgent) => m.walk(path, idField, limit, as);

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
