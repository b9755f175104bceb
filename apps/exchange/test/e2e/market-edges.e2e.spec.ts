import type { HttpResult } from './http';
import { MarketHttp, expectProblem, money, newKey } from './market-http';
import { bootStack, type Stack } from './stack';
import { eventually } from './wallet-http';

// Edges of the market end to end: the optional idempotency key on every mutation (a replay moves
// no money twice and creates nothing twice; another payload is 422; keys are scoped per caller),
// micro-unit rounding of split decisions, and frozen agents around the money steps (the wallet
// refuses a frozen payer: an award is refused whole, a settlement waits for the recovery worker).

let stack: Stack;
let m: MarketHttp;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

/** Sends `send(key)` twice with one key: same status and body, the second marked as a replay. */
async function expectReplay(send: (key: string) => Promise<HttpResult>, status: number) {
  const key = newKey('replay');
  const first = await send(key);
  if (first.status !== status) throw new Error(`expected ${status}, got ${first.status}: ${first.text}`);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const again = await send(key);
  expect(again.status).toBe(status);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(first.body);
  return { key, body: first.body };
}

describe('idempotency keys on market mutations', () => {
  it('replays results, verdicts, disputes and resolutions without doing them twice (money moves once)', async () => {
    const { buyer, seller, contractId } = await m.awarded({ funds: '100', price: '100' });
    const result = await expectReplay((k) => m.result(seller, contractId, {}, { 'idempotency-key': k }), 201);
    const results = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/results`), 200);
    expect(results.data).toHaveLength(1);
    expectProblem(await m.result(seller, contractId, { summary: 'other' }, { 'idempotency-key': result.key }), 422, 'idempotency_key_reused');

    const report = m.report(buyer.agentId, result.body.result_id, 'fail', buyer.seed);
    await expectReplay((k) => m.as(buyer, 'POST', `/v1/contracts/${contractId}/verify`, { ...report, idempotency_key: k }), 201);
    expect((await m.contract(contractId)).status).toBe('awarded');

    const second = await m.submitResult(seller, contractId);
    const dispute = await expectReplay((k) => m.openDispute(buyer, contractId, { idempotency_key: k }), 201);
    expect(dispute.body.contract_id).toBe(contractId);
    const disputes = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/disputes`), 200);
    expect(disputes.data).toHaveLength(1);
    expect((await m.expectStatus(m.op('GET', `/v1/results/${second.result_id}`), 200)).status).toBe('submitted');

    const resolved = await expectReplay((k) => m.resolve(dispute.body.dispute_id, { outcome: 'split', seller_share_bps: 2500 }, { 'idempotency-key': k }), 200);
    expect(resolved.body).toMatchObject({ status: 'resolved', outcome: 'split', seller_share_bps: 2500 });
    expectProblem(await m.resolve(dispute.body.dispute_id, { outcome: 'buyer' }, { 'idempotency-key': resolved.key }), 422, 'idempotency_key_reused');
    // G = 25, F(G) = 0.25: seller 24.75, buyer 75 back — once, despite the replay.
    await m.expectBalance(buyer, { available: '75', held: '0' });
    await m.expectBalance(seller, { available: '24.75', held: '0' });
    await m.expectLedgerOk();
  });

  it('replays cancel (escrow released once), withdraw, listings, verifiers and verifier listings', async () => {
    const a = await m.awarded({ funds: '50', price: '50', contract: { budget: money('50') } });
    await expectReplay((k) => m.as(a.seller, 'POST', `/v1/contracts/${a.contractId}/cancel`, { reason: 'sick', idempotency_key: k }), 200);
    await m.expectBalance(a.buyer, { available: '50', held: '0' });

    const buyer = await m.newAgent('i-buyer');
    const seller = await m.newAgent('i-seller');
    const c = await m.openContract(buyer);
    const offer = await m.submitOffer(seller, c.contract_id, '10');
    await expectReplay((k) => m.as(seller, 'POST', `/v1/offers/${offer.offer_id}/withdraw`, { idempotency_key: k }), 200);

    const listing = await expectReplay((k) => m.as(seller, 'POST', '/v1/listings', { title: 'Once', price: money('4'), idempotency_key: k }), 201);
    expectProblem(await m.as(seller, 'POST', '/v1/listings', { title: 'Twice', price: money('4'), idempotency_key: listing.key }), 422, 'idempotency_key_reused');
    const verifier = await m.newAgent('i-verifier');
    await expectReplay((k) => m.as(verifier, 'POST', '/v1/verifiers', { name: 'Once', idempotency_key: k }), 201);
    await expectReplay((k) => m.as(verifier, 'POST', '/v1/verifier-listings', { title: 'VL', price: money('1'), turnaround: 'PT1H', idempotency_key: k }), 201);
    const vls = await m.expectStatus(m.op('GET', `/v1/verifier-listings?verifier_id=${encodeURIComponent(verifier.agentId)}`), 200);
    expect(vls.data).toHaveLength(1);
  });

  it('scopes a key to its caller: two buyers using one key create two contracts', async () => {
    const b1 = await m.newAgent('scope-1');
    const b2 = await m.newAgent('scope-2');
    const key = newKey('shared');
    const c1 = await m.expectStatus(m.createContract(b1, { idempotency_key: key }), 201);
    const res2 = await m.createContract(b2, { idempotency_key: key });
    expect(res2.status).toBe(201);
    expect(res2.headers.get('idempotent-replayed')).toBeNull();
    expect(res2.body.contract_id).not.toBe(c1.contract_id);
    expect(res2.body.buyer_id).toBe(b2.agentId);
  });
});

describe('split rounding to the micro-unit', () => {
  it('escrow held: P = 33.333333, 3333 bps → G = 11.109999, fee 0.111099: seller 10.9989, buyer 22.223334 back', async () => {
    const { buyer, seller, contractId } = await m.delivered({ funds: '40', price: '33.333333' });
    const dispute = await m.expectStatus(m.openDispute(buyer, contractId), 201);
    await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'split', seller_share_bps: 3333 }), 200);
    await m.expectBalance(buyer, { available: '28.890001', held: '0' });
    await m.expectBalance(seller, { available: '10.9989', held: '0' });
    const receipt = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/receipt`), 200);
    expect(receipt).toMatchObject({ amount: '11.109999', fee: '0.111099', refunded_amount: '22.223334' });
  });

  it('after settlement: the seller pays back (P − F(P)) − (G − F(G)) = 33 − 10.9989 = 22.0011', async () => {
    const { buyer, seller, contractId } = await m.settled({ funds: '40', price: '33.333333' });
    await m.expectBalance(seller, { available: '33', held: '0' });
    const dispute = await m.expectStatus(m.openDispute(buyer, contractId), 201);
    await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'split', seller_share_bps: 3333 }), 200);
    await m.expectBalance(buyer, { available: '28.667767', held: '0' });
    await m.expectBalance(seller, { available: '10.9989', held: '0' });
  });
});

describe('frozen agents around the money steps', () => {
  it('award for a frozen buyer: refused (403 agent_frozen) and nothing changes; after unfreezing it goes through', async () => {
    const buyer = await m.newAgent('f-buyer');
    const seller = await m.newAgent('f-seller');
    await m.fund(buyer, '50');
    const c = await m.openContract(buyer, { budget: money('50') });
    const offer = await m.submitOffer(seller, c.contract_id, '50');
    await m.expectStatus(m.op('POST', `/v1/agents/${buyer.agentId}/freeze`, { reason: 'review' }), 200);
    // Let the market's and the wallet's identity caches (AGENT_CACHE_TTL_MS, 1 s) see the freeze.
    await new Promise((r) => setTimeout(r, 1500));
    expectProblem(await m.award(c.contract_id, offer.offer_id), 403, 'agent_frozen');
    expect(await m.contract(c.contract_id)).toMatchObject({ status: 'open', escrow_status: 'none', hold_id: null });
    expect((await m.expectStatus(m.op('GET', `/v1/offers/${offer.offer_id}`), 200)).status).toBe('submitted');
    await m.expectBalance(buyer, { available: '50', held: '0' });
    await m.expectStatus(m.op('POST', `/v1/agents/${buyer.agentId}/unfreeze`, { reason: 'cleared' }), 200);
    const awarded = await eventually(() => m.award(c.contract_id, offer.offer_id), (r) => r.status === 200, 40);
    expect(awarded.body).toMatchObject({ status: 'awarded', escrow_status: 'held' });
    await m.expectBalance(buyer, { available: '0', held: '50' });
  });

  it('buyer frozen between award and the verifier’s pass: the report is stored, settlement waits, the recovery worker settles after unfreezing', async () => {
    const verifier = await m.newAgent('f-verifier');
    await m.expectStatus(m.as(verifier, 'POST', '/v1/verifiers', { name: 'F' }), 201);
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '20', price: '20', contract: { budget: money('20'), verification_mode: 'verifier', verifier_id: verifier.agentId } });
    await m.expectStatus(m.op('POST', `/v1/agents/${buyer.agentId}/freeze`, { reason: 'review' }), 200);
    // Let the market's and the wallet's identity caches see the freeze.
    await new Promise((r) => setTimeout(r, 1500));
    await m.expectStatus(m.verify(verifier, contractId, result.result_id, 'pass'), 201);
    expect(await m.contract(contractId)).toMatchObject({ status: 'accepted', escrow_status: 'held', receipt_id: null });
    await m.expectBalance(buyer, { available: '0', held: '20' });
    await m.expectStatus(m.op('POST', `/v1/agents/${buyer.agentId}/unfreeze`, { reason: 'cleared' }), 200);
    const settled = await eventually(() => m.contract(contractId), (c) => c.status === 'settled', 60, 250);
    expect(settled).toMatchObject({ escrow_status: 'settled', receipt_id: expect.stringMatching(/^rcpt_/) });
    await m.expectBalance(buyer, { available: '0', held: '0' });
    await m.expectBalance(seller, { available: '19.8', held: '0' });
  });

  it('a frozen verifier cannot verify (403 agent_frozen)', async () => {
    const verifier = await m.newAgent('f-verifier2');
    await m.expectStatus(m.as(verifier, 'POST', '/v1/verifiers', { name: 'F2' }), 201);
    const { contractId, result } = await m.delivered({ funds: '20', price: '20', contract: { budget: money('20'), verification_mode: 'verifier', verifier_id: verifier.agentId } });
    await m.expectStatus(m.op('POST', `/v1/agents/${verifier.agentId}/freeze`, { reason: 'review' }), 200);
    expectProblem(await m.verify(verifier, contractId, result.result_id, 'pass'), 403, 'agent_frozen');
    expect((await m.contract(contractId)).status).toBe('delivered');
  });
});

describe('offer states', () => {
  it('an awarded or rejected offer cannot be withdrawn (409 invalid_state)', async () => {
    const buyer = await m.newAgent('o-buyer');
    const s1 = await m.newAgent('o-s1');
    const s2 = await m.newAgent('o-s2');
    await m.fund(buyer, '20');
    const c = await m.openContract(buyer, { budget: money('20') });
    const o1 = await m.submitOffer(s1, c.contract_id, '20');
    const o2 = await m.submitOffer(s2, c.contract_id, '15');
    await m.expectStatus(m.award(c.contract_id, o1.offer_id), 200);
    const awardedRefusal = expectProblem(await m.as(s1, 'POST', `/v1/offers/${o1.offer_id}/withdraw`, {}), 409, 'invalid_state');
    expect(awardedRefusal).toMatchObject({ current: 'awarded', wanted: 'withdrawn' });
    expectProblem(await m.as(s2, 'POST', `/v1/offers/${o2.offer_id}/withdraw`, {}), 409, 'invalid_state');
    await m.expectBalance(buyer, { available: '0', held: '20' });
  });
});

describe('defaults and acting agents', () => {
  it('a report without verifier_id is the acting agent’s (signed with that id)', async () => {
    const { buyer, contractId, result } = await m.delivered({ funds: '10', price: '10', contract: { budget: money('10') } });
    const { verifier_id: _omitted, ...body } = m.report(buyer.agentId, result.result_id, 'pass', buyer.seed);
    const report = await m.expectStatus(m.as(buyer, 'POST', `/v1/contracts/${contractId}/verify`, body), 201);
    expect(report.verifier_id).toBe(buyer.agentId);
    expect((await m.contract(contractId)).status).toBe('settled');
  });

  it('the operator acting for the buyer (X-Agent-Id) verifies with the buyer’s signature', async () => {
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '10', price: '10', contract: { budget: money('10') } });
    const report = m.report(buyer.agentId, result.result_id, 'pass', buyer.seed);
    await m.expectStatus(m.op('POST', `/v1/contracts/${contractId}/verify`, report, { 'x-agent-id': buyer.agentId }), 201);
    await m.expectBalance(seller, { available: '9.9', held: '0' });
  });

  it('an award rejects the other submitted offers but leaves a withdrawn one withdrawn', async () => {
    const buyer = await m.newAgent('w-buyer');
    const [s1, s2, s3] = [await m.newAgent('w-s1'), await m.newAgent('w-s2'), await m.newAgent('w-s3')];
    await m.fund(buyer, '10');
    const c = await m.openContract(buyer, { budget: money('10') });
    const o1 = await m.submitOffer(s1, c.contract_id, '10');
    const o2 = await m.submitOffer(s2, c.contract_id, '9');
    const o3 = await m.submitOffer(s3, c.contract_id, '8');
    await m.expectStatus(m.as(s3, 'POST', `/v1/offers/${o3.offer_id}/withdraw`, {}), 200);
    await m.expectStatus(m.award(c.contract_id, o1.offer_id), 200);
    const statuses = await Promise.all([o1, o2, o3].map(async (o) => (await m.expectStatus(m.op('GET', `/v1/offers/${o.offer_id}`), 200)).status));
    expect(statuses).toEqual(['awarded', 'rejected', 'withdrawn']);
  });

  it('a listing with several tags is found by each of them', async () => {
    const seller = await m.newAgent('t-seller');
    const t1 = `t1-${newKey('a').toLowerCase()}`.slice(0, 40);
    const t2 = `t2-${newKey('b').toLowerCase()}`.slice(0, 40);
    const l = await m.expectStatus(m.as(seller, 'POST', '/v1/listings', { title: 'Two tags', tags: [t1, t2], price: money('1') }), 201);
    for (const t of [t1, t2]) {
      const found = await m.expectStatus(m.op('GET', `/v1/listings?tag=${t}`), 200);
      expect(found.data.map((x: any) => x.listing_id)).toEqual([l.listing_id]);
    }
  });
});
