import { verifyReceipt } from '@exchange/sdk';
import { MarketHttp, expectProblem, future } from './market-http';
import { bootStack, exchangePublicKey, type Stack } from './stack';
import { eventually } from './wallet-http';

// Cancel (beyond the spec: POST /v1/contracts/{id}/cancel) and deadline expiry, each releasing the
// escrow of an awarded contract back to the buyer with a refund receipt. The stack runs the
// deadline sweeper every 300 ms with a 1 s award grace, so contracts whose deadline is a few
// seconds ahead expire during the test.

let stack: Stack;
let m: MarketHttp;
let exchangeKey: string;

beforeAll(async () => {
  stack = await bootStack({ env: { MARKET_SWEEP_INTERVAL_MS: '300', MARKET_AWARD_GRACE_MS: '1000' } });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
  exchangeKey = await exchangePublicKey(stack);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

describe('POST /v1/contracts/{contract_id}/cancel', () => {
  it('open: the buyer cancels with a reason; its submitted offers are rejected; no money moves', async () => {
    const buyer = await m.newAgent('c-buyer');
    const seller = await m.newAgent('c-seller');
    await m.fund(buyer, '10');
    const c = await m.openContract(buyer);
    const offer = await m.submitOffer(seller, c.contract_id, '50');
    // Only the buyer (or the operator) cancels an open contract.
    expectProblem(await m.as(seller, 'POST', `/v1/contracts/${c.contract_id}/cancel`, { reason: 'not mine' }), 403, 'not_allowed_to_cancel');
    const cancelled = await m.expectStatus(m.as(buyer, 'POST', `/v1/contracts/${c.contract_id}/cancel`, { reason: 'plans changed' }), 200);
    expect(cancelled).toMatchObject({ contract_id: c.contract_id, status: 'cancelled', cancel_reason: 'plans changed', escrow_status: 'none', receipt_id: null });
    expect((await m.expectStatus(m.op('GET', `/v1/offers/${offer.offer_id}`), 200)).status).toBe('rejected');
    await m.expectBalance(buyer, { available: '10', held: '0' });
    // Terminal: a second cancel, an offer or an award are refused.
    expectProblem(await m.as(buyer, 'POST', `/v1/contracts/${c.contract_id}/cancel`, {}), 409, 'invalid_state');
    expectProblem(await m.offer(await m.newAgent('late'), c.contract_id, '10'), 409, 'invalid_state');
    expectProblem(await m.award(c.contract_id, offer.offer_id), 409, 'invalid_state');
  });

  it('open: the operator cancels without a body', async () => {
    const buyer = await m.newAgent('c-op-buyer');
    const c = await m.openContract(buyer);
    const cancelled = await m.expectStatus(m.op('POST', `/v1/contracts/${c.contract_id}/cancel`), 200);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: null });
  });

  it('awarded: the awarded seller cancels; the escrow is released to the buyer with a refund receipt', async () => {
    const { buyer, seller, contractId } = await m.awarded({ funds: '120', price: '100' });
    await m.expectBalance(buyer, { available: '20', held: '100' });
    // The buyer no longer may once the work is awarded.
    expectProblem(await m.as(buyer, 'POST', `/v1/contracts/${contractId}/cancel`, {}), 403, 'not_allowed_to_cancel');
    const cancelled = await m.expectStatus(m.as(seller, 'POST', `/v1/contracts/${contractId}/cancel`, { reason: 'cannot deliver' }), 200);
    expect(cancelled).toMatchObject({ status: 'cancelled', escrow_status: 'released', receipt_id: expect.stringMatching(/^rcpt_/) });
    await m.expectBalance(buyer, { available: '120', held: '0' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    const receipt = await m.expectStatus(m.as(buyer, 'GET', `/v1/contracts/${contractId}/receipt`), 200);
    expect(receipt).toMatchObject({ kind: 'refund', amount: '100', fee: '0', refunded_amount: '100', payer: buyer.agentId, payee: buyer.agentId, contract_id: contractId });
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
    expectProblem(await m.result(seller, contractId), 409, 'invalid_state');
  });

  it('awarded: the operator cancels (escrow released); delivered cannot be cancelled (409 invalid_state)', async () => {
    const a = await m.awarded({ funds: '100', price: '100' });
    await m.expectStatus(m.op('POST', `/v1/contracts/${a.contractId}/cancel`, { reason: 'operator review' }), 200);
    expect(await m.contract(a.contractId)).toMatchObject({ status: 'cancelled', escrow_status: 'released' });
    await m.expectBalance(a.buyer, { available: '100', held: '0' });

    const d = await m.delivered({ funds: '100', price: '100' });
    const refused = expectProblem(await m.op('POST', `/v1/contracts/${d.contractId}/cancel`, {}), 409, 'invalid_state');
    expect(refused).toMatchObject({ current: 'delivered', wanted: 'cancelled' });
    await m.expectBalance(d.buyer, { available: '0', held: '100' });
    expectProblem(await m.op('POST', '/v1/contracts/ctr_00000000-0000-7000-8000-000000000000/cancel', {}), 404, 'contract_not_found');
  });
});

describe('deadline expiry (sweeper)', () => {
  it('expires an open contract past its deadline and rejects its offers', async () => {
    const buyer = await m.newAgent('x-buyer');
    const seller = await m.newAgent('x-seller');
    const c = await m.openContract(buyer, { deadline: future(2500) });
    const offer = await m.submitOffer(seller, c.contract_id, '10', { eta: future(2000) });
    const expired = await eventually(() => m.contract(c.contract_id), (x) => x.status !== 'open', 60, 250);
    expect(expired).toMatchObject({ status: 'expired', escrow_status: 'none' });
    expect((await m.expectStatus(m.op('GET', `/v1/offers/${offer.offer_id}`), 200)).status).toBe('rejected');
    expectProblem(await m.award(c.contract_id, offer.offer_id), 409, 'invalid_state');
  });

  it('expires an awarded contract past deadline + grace and releases the escrow with a refund receipt', async () => {
    // Parties first, so that only contract, offer and award run against the short deadline.
    const [buyer, seller] = [await m.newAgent('x2-buyer'), await m.newAgent('x2-seller')];
    await m.fund(buyer, '100');
    const { contractId } = await m.awarded({ buyer, seller, funds: '0', price: '75', contract: { deadline: future(3000) } });
    await m.expectBalance(buyer, { available: '25', held: '75' });
    const expired = await eventually(() => m.contract(contractId), (x) => x.status === 'expired' && x.escrow_status === 'released', 80, 250);
    expect(expired.receipt_id).toMatch(/^rcpt_/);
    await m.expectBalance(buyer, { available: '100', held: '0' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    const receipt = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/receipt`), 200);
    expect(receipt).toMatchObject({ kind: 'refund', amount: '75', refunded_amount: '75' });
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
    // Too late to deliver now.
    expectProblem(await m.result(seller, contractId), 409, 'invalid_state');
  });

  it('leaves a disputed contract alone past deadline + grace; a disputed contract cannot be cancelled (409)', async () => {
    const [buyer, seller] = [await m.newAgent('x3-buyer'), await m.newAgent('x3-seller')];
    await m.fund(buyer, '40');
    const { contractId } = await m.awarded({ buyer, seller, funds: '0', price: '40', contract: { deadline: future(3000) } });
    await m.expectStatus(m.openDispute(buyer, contractId), 201);
    await new Promise((r) => setTimeout(r, 5000));
    expect(await m.contract(contractId)).toMatchObject({ status: 'disputed', disputed_from: 'awarded', escrow_status: 'held' });
    await m.expectBalance(buyer, { available: '0', held: '40' });
    expectProblem(await m.op('POST', `/v1/contracts/${contractId}/cancel`, {}), 409, 'invalid_state');
  });

  it('leaves an awarded contract that is delivered alone (only open and awarded expire)', async () => {
    const [buyer, seller] = [await m.newAgent('x4-buyer'), await m.newAgent('x4-seller')];
    await m.fund(buyer, '10');
    const { contractId } = await m.delivered({ buyer, seller, funds: '0', price: '10', contract: { deadline: future(3000), budget: { amount: '10', currency: 'CREDIT' } } });
    await new Promise((r) => setTimeout(r, 5000));
    expect(await m.contract(contractId)).toMatchObject({ status: 'delivered', escrow_status: 'held' });
    await m.expectBalance(buyer, { available: '0', held: '10' });
  });
});
