import { verifyReceipt } from '@exchange/sdk';
import { ISO, MarketHttp, expectProblem, newKey, walletPath } from './market-http';
import { bootStack, exchangePublicKey, type Stack } from './stack';

// Disputes end to end: each outcome (seller, buyer, split 30% = 3000 bps) while the escrow is
// held and after settlement, with the exact balances after (P = 100 CREDIT, fee 100 bps:
// F(100) = 1, G = 30, F(30) = 0.3), the refusals, the filters of the list and the read.

let stack: Stack;
let m: MarketHttp;
let exchangeKey: string;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
  exchangeKey = await exchangePublicKey(stack);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

async function disputeDelivered(openedBy: 'buyer' | 'seller') {
  const base = await m.delivered({ funds: '100', price: '100' });
  const opener = openedBy === 'buyer' ? base.buyer : base.seller;
  const dispute = await m.expectStatus(m.openDispute(opener, base.contractId), 201);
  return { ...base, dispute };
}

describe('POST /v1/contracts/{contract_id}/disputes', () => {
  it('opens a dispute on a delivered contract: contract disputed (from delivered), escrow still held', async () => {
    const { buyer, seller, contractId, dispute } = await disputeDelivered('buyer');
    expect(dispute).toMatchObject({
      dispute_id: expect.stringMatching(/^dsp_/),
      contract_id: contractId,
      opened_by: buyer.agentId,
      reason: 'Two summaries are missing.',
      evidence_refs: ['ref-1'],
      status: 'open',
      outcome: null,
      seller_share_bps: null,
      rationale: null,
      resolved_by: null,
      resolved_at: null,
      receipt_id: null,
      created_at: expect.stringMatching(ISO),
    });
    expect(await m.contract(contractId)).toMatchObject({ status: 'disputed', disputed_from: 'delivered', escrow_status: 'held' });
    await m.expectBalance(buyer, { available: '0', held: '100' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    // One open dispute at a time: the contract is disputed.
    expectProblem(await m.openDispute(seller, contractId), 409, 'invalid_state');
    // Settlement pauses: results and verification are refused while disputed.
    expectProblem(await m.result(seller, contractId), 409, 'invalid_state');
  });

  it('opens from awarded by the seller; refused on an open contract (409) and for an unknown contract (404)', async () => {
    const { seller, contractId } = await m.awarded({ funds: '100', price: '100' });
    const d = await m.expectStatus(m.openDispute(seller, contractId, { evidence_refs: [] }), 201);
    expect(d).toMatchObject({ opened_by: seller.agentId, evidence_refs: [] });
    expect(await m.contract(contractId)).toMatchObject({ status: 'disputed', disputed_from: 'awarded' });

    const buyer = await m.newAgent('d-open-buyer');
    const open = await m.openContract(buyer);
    expectProblem(await m.openDispute(buyer, open.contract_id), 409, 'invalid_state');
    expectProblem(await m.openDispute(buyer, 'ctr_00000000-0000-7000-8000-000000000000'), 404, 'contract_not_found');
    expectProblem(await m.openDispute(buyer, open.contract_id, { reason: '' }), 400, 'validation_failed');
  });
});

describe('POST /v1/disputes/{dispute_id}/resolve', () => {
  it('escrow held, outcome seller: the hold is settled to the seller less the fee (seller +99, buyer −100)', async () => {
    const { buyer, seller, contractId, dispute } = await disputeDelivered('buyer');
    const resolved = await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'seller', rationale: 'Work matches the criteria.' }), 200);
    expect(resolved).toMatchObject({
      dispute_id: dispute.dispute_id,
      status: 'resolved',
      outcome: 'seller',
      seller_share_bps: null,
      rationale: 'Work matches the criteria.',
      resolved_by: expect.stringMatching(/^operator:/),
      resolved_at: expect.stringMatching(ISO),
      receipt_id: expect.stringMatching(/^rcpt_/),
    });
    const contract = await m.contract(contractId);
    expect(contract).toMatchObject({ status: 'settled', escrow_status: 'settled', receipt_id: resolved.receipt_id });
    await m.expectBalance(buyer, { available: '0', held: '0' });
    await m.expectBalance(seller, { available: '99', held: '0' });
    const receipt = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/receipt`), 200);
    expect(receipt).toMatchObject({ receipt_id: resolved.receipt_id, kind: 'settlement', amount: '100', fee: '1', refunded_amount: '0', payee: seller.agentId });
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
    // Resolved once: a second resolution is refused and moves nothing.
    expectProblem(await m.resolve(dispute.dispute_id, { outcome: 'buyer' }), 409, 'invalid_state');
    await m.expectBalance(buyer, { available: '0', held: '0' });
  });

  it('escrow held, outcome buyer: the hold is released (buyer ±0), contract refunded with a refund receipt', async () => {
    const { buyer, seller, contractId, dispute } = await disputeDelivered('seller');
    const resolved = await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'buyer' }), 200);
    expect(resolved).toMatchObject({ status: 'resolved', outcome: 'buyer', receipt_id: expect.stringMatching(/^rcpt_/) });
    expect(await m.contract(contractId)).toMatchObject({ status: 'refunded', escrow_status: 'released', receipt_id: resolved.receipt_id });
    await m.expectBalance(buyer, { available: '100', held: '0' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    const receipt = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/receipt`), 200);
    expect(receipt).toMatchObject({ kind: 'refund', amount: '100', fee: '0', refunded_amount: '100', payer: buyer.agentId, payee: buyer.agentId });
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
  });

  it('escrow held, split 3000 bps: seller +29.7, fees +0.3, buyer −30 (70 back)', async () => {
    const { buyer, seller, contractId, dispute } = await disputeDelivered('buyer');
    const resolved = await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'split', seller_share_bps: 3000 }), 200);
    expect(resolved).toMatchObject({ outcome: 'split', seller_share_bps: 3000, receipt_id: expect.stringMatching(/^rcpt_/) });
    expect(await m.contract(contractId)).toMatchObject({ status: 'split', escrow_status: 'settled' });
    await m.expectBalance(buyer, { available: '70', held: '0' });
    await m.expectBalance(seller, { available: '29.7', held: '0' });
    const receipt = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/receipt`), 200);
    expect(receipt).toMatchObject({ kind: 'settlement', amount: '30', fee: '0.3', refunded_amount: '70' });
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
  });

  it('after settlement, outcome seller: no money moves, the contract is settled again', async () => {
    const { buyer, seller, contractId } = await m.settled({ funds: '100', price: '100' });
    const before = await m.contract(contractId);
    const dispute = await m.expectStatus(m.openDispute(buyer, contractId), 201);
    expect(await m.contract(contractId)).toMatchObject({ status: 'disputed', disputed_from: 'settled', escrow_status: 'settled' });
    const resolved = await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'seller' }), 200);
    expect(resolved).toMatchObject({ outcome: 'seller', status: 'resolved' });
    expect(await m.contract(contractId)).toMatchObject({ status: 'settled', escrow_status: 'settled', receipt_id: before.receipt_id });
    await m.expectBalance(buyer, { available: '0', held: '0' });
    await m.expectBalance(seller, { available: '99', held: '0' });
  });

  it('after settlement, outcome buyer: the seller pays back P − F(P) = 99 (the fee is not returned)', async () => {
    const { buyer, seller, contractId } = await m.settled({ funds: '100', price: '100' });
    const dispute = await m.expectStatus(m.openDispute(seller, contractId), 201);
    await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'buyer' }), 200);
    expect(await m.contract(contractId)).toMatchObject({ status: 'refunded' });
    await m.expectBalance(buyer, { available: '99', held: '0' });
    await m.expectBalance(seller, { available: '0', held: '0' });
  });

  it('after settlement, split 3000: the seller pays back 99 − 29.7 = 69.3', async () => {
    const { buyer, seller, contractId } = await m.settled({ funds: '100', price: '100' });
    const dispute = await m.expectStatus(m.openDispute(buyer, contractId), 201);
    await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'split', seller_share_bps: 3000 }), 200);
    expect(await m.contract(contractId)).toMatchObject({ status: 'split' });
    await m.expectBalance(buyer, { available: '69.3', held: '0' });
    await m.expectBalance(seller, { available: '29.7', held: '0' });
  });

  it('after settlement, a seller short of funds: 409 insufficient_funds, the dispute stays open, nothing moves; resolvable once funded', async () => {
    const { buyer, seller, contractId } = await m.settled({ funds: '100', price: '100' });
    const sink = await m.newAgent('d-sink');
    await m.expectStatus(m.as(seller, 'POST', walletPath(seller, '/transfer'), { to_agent_id: sink.agentId, amount: '50', currency: 'CREDIT', idempotency_key: newKey() }), 201);
    const dispute = await m.expectStatus(m.openDispute(buyer, contractId), 201);
    expectProblem(await m.resolve(dispute.dispute_id, { outcome: 'buyer' }), 409, 'insufficient_funds');
    expect(await m.expectStatus(m.op('GET', `/v1/disputes/${dispute.dispute_id}`), 200)).toMatchObject({ status: 'open', outcome: null });
    expect(await m.contract(contractId)).toMatchObject({ status: 'disputed' });
    await m.expectBalance(buyer, { available: '0', held: '0' });
    await m.expectBalance(seller, { available: '49', held: '0' });
    // Once the seller can pay, the same decision goes through.
    await m.fund(seller, '50');
    await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'buyer' }), 200);
    await m.expectBalance(buyer, { available: '99', held: '0' });
    await m.expectBalance(seller, { available: '0', held: '0' });
  });

  it('after settlement, a frozen seller cannot be made to pay back: refused (403 agent_frozen), dispute open, nothing moves', async () => {
    const { buyer, seller, contractId } = await m.settled({ funds: '100', price: '100' });
    const dispute = await m.expectStatus(m.openDispute(buyer, contractId), 201);
    await m.expectStatus(m.op('POST', `/v1/agents/${seller.agentId}/freeze`, { reason: 'review' }), 200);
    // The wallet's identity cache (1 s) must see the freeze.
    await new Promise((r) => setTimeout(r, 1500));
    expectProblem(await m.resolve(dispute.dispute_id, { outcome: 'buyer' }), 403, 'agent_frozen');
    expect((await m.expectStatus(m.op('GET', `/v1/disputes/${dispute.dispute_id}`), 200)).status).toBe('open');
    await m.expectBalance(buyer, { available: '0', held: '0' });
    await m.expectBalance(seller, { available: '99', held: '0' });
    await m.expectStatus(m.op('POST', `/v1/agents/${seller.agentId}/unfreeze`, { reason: 'cleared' }), 200);
    await new Promise((r) => setTimeout(r, 1500));
    await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'buyer' }), 200);
    await m.expectBalance(buyer, { available: '99', held: '0' });
    await m.expectBalance(seller, { available: '0', held: '0' });
  });

  it('validates the decision: split needs seller_share_bps, other outcomes refuse it (400 invalid_seller_share); unknown dispute 404', async () => {
    const { buyer, contractId, dispute } = await disputeDelivered('buyer');
    expectProblem(await m.resolve(dispute.dispute_id, { outcome: 'split' }), 400, 'invalid_seller_share');
    expectProblem(await m.resolve(dispute.dispute_id, { outcome: 'seller', seller_share_bps: 3000 }), 400, 'invalid_seller_share');
    expectProblem(await m.resolve(dispute.dispute_id, { outcome: 'buyer', seller_share_bps: 5000 }), 400, 'invalid_seller_share');
    for (const bps of [0, 10000, -1]) {
      expectProblem(await m.resolve(dispute.dispute_id, { outcome: 'split', seller_share_bps: bps }), 400, 'invalid_seller_share');
    }
    expectProblem(await m.resolve(dispute.dispute_id, { outcome: 'split', seller_share_bps: 3000, rationale: '' }), 400, 'validation_failed');
    expectProblem(await m.resolve('dsp_00000000-0000-7000-8000-000000000000', { outcome: 'buyer' }), 404, 'dispute_not_found');
    // An agent-signed resolution is refused by the gateway (operator only).
    expectProblem(await m.as(buyer, 'POST', `/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'buyer', rationale: 'mine' }), 403, 'operator_token_required');
    expect(await m.contract(contractId)).toMatchObject({ status: 'disputed' });
    await m.expectBalance(buyer, { available: '0', held: '100' });
  });
});

describe('GET /v1/contracts/{contract_id}/disputes', () => {
  it('lists a contract’s disputes, filtered by opened_by and status, paginated', async () => {
    const { buyer, seller, contractId } = await m.settled({ funds: '100', price: '100' });
    const first = await m.expectStatus(m.openDispute(buyer, contractId, { reason: 'first' }), 201);
    await m.expectStatus(m.resolve(first.dispute_id, { outcome: 'seller' }), 200);
    const second = await m.expectStatus(m.openDispute(seller, contractId, { reason: 'second' }), 201);

    const all = await m.expectStatus(m.as(buyer, 'GET', `/v1/contracts/${contractId}/disputes`), 200);
    expect(all.data.map((d: any) => d.dispute_id).sort()).toEqual([first.dispute_id, second.dispute_id].sort());
    expect(all.next_cursor).toBeNull();
    const byBuyer = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/disputes?opened_by=${encodeURIComponent(buyer.agentId)}`), 200);
    expect(byBuyer.data.map((d: any) => d.dispute_id)).toEqual([first.dispute_id]);
    const open = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/disputes?status=open`), 200);
    expect(open.data.map((d: any) => d.dispute_id)).toEqual([second.dispute_id]);
    const resolved = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/disputes?status=resolved`), 200);
    expect(resolved.data.map((d: any) => d.dispute_id)).toEqual([first.dispute_id]);

    const page1 = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/disputes?limit=1`), 200);
    expect(page1.data).toHaveLength(1);
    expect(typeof page1.next_cursor).toBe('string');
    const page2 = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/disputes?limit=1&cursor=${encodeURIComponent(page1.next_cursor)}`), 200);
    expect(page2.data).toHaveLength(1);
    expect(page2.data[0].dispute_id).not.toBe(page1.data[0].dispute_id);

    expectProblem(await m.op('GET', '/v1/contracts/ctr_00000000-0000-7000-8000-000000000000/disputes'), 404, 'contract_not_found');
    expectProblem(await m.op('GET', `/v1/contracts/${contractId}/disputes?status=closed`), 400, 'validation_failed');
  });
});

describe('GET /v1/disputes/{dispute_id}', () => {
  it('reads a dispute; unknown 404 dispute_not_found', async () => {
    const { seller, dispute } = await disputeDelivered('seller');
    expect(await m.expectStatus(m.as(seller, 'GET', `/v1/disputes/${dispute.dispute_id}`), 200)).toEqual(dispute);
    expectProblem(await m.op('GET', '/v1/disputes/dsp_00000000-0000-7000-8000-000000000000'), 404, 'dispute_not_found');
  });
});
