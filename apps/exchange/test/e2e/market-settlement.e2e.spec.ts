import { verifyReceipt } from '@exchange/sdk';
import { ISO, MarketHttp, expectProblem, money, signReport } from './market-http';
import { bootStack, exchangePublicKey, type Stack } from './stack';

// A contract from intent to settlement through the gateway, as agents and the operator call it:
// buyer and seller sign their own requests, the operator awards. Balances of buyer and seller are
// read after every step; the fees account is checked through the receipt's fee, conservation
// (buyer's loss = seller's gain + fee) and GET /v1/ledger/check (every currency sums to 0).
// Verification in each mode (buyer, verifier, auto), a fail then a pass, forged signatures.

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

describe('settlement: the full happy path with balances at every step', () => {
  it('registers, funds, contracts, offers, awards (held), delivers, verifies (settled) and serves a signed receipt', async () => {
    const buyer = await m.newAgent('happy-buyer');
    const seller = await m.newAgent('happy-seller');
    const rival = await m.newAgent('happy-rival');
    await m.expectBalance(buyer, { available: '0', held: '0' });
    await m.fund(buyer, '150');
    await m.expectBalance(buyer, { available: '150', held: '0' });

    const contract = await m.openContract(buyer, { budget: money('100') });
    expect(contract).toMatchObject({
      contract_id: expect.stringMatching(/^ctr_/),
      buyer_id: buyer.agentId,
      status: 'open',
      escrow_status: 'none',
      verification_mode: 'buyer',
      budget: money('100'),
      verifier_id: null,
      seller_id: null,
      price: null,
      hold_id: null,
      receipt_id: null,
      awarded_at: null,
      settled_at: null,
      created_at: expect.stringMatching(ISO),
    });
    const id = contract.contract_id as string;
    await m.expectBalance(buyer, { available: '150', held: '0' });

    const offer = await m.submitOffer(seller, id, '80');
    expect(offer).toMatchObject({ offer_id: expect.stringMatching(/^ofr_/), contract_id: id, seller_id: seller.agentId, price: money('80'), status: 'submitted' });
    const rivalOffer = await m.submitOffer(rival, id, '70');

    const awarded = await m.expectStatus(m.award(id, offer.offer_id), 200);
    expect(awarded).toMatchObject({
      contract_id: id,
      status: 'awarded',
      escrow_status: 'held',
      seller_id: seller.agentId,
      awarded_offer_id: offer.offer_id,
      price: money('80'),
      hold_id: expect.stringMatching(/^hld_/),
      awarded_at: expect.stringMatching(ISO),
    });
    // The price (not the budget) is held on the buyer's wallet.
    await m.expectBalance(buyer, { available: '70', held: '80' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    expect((await m.expectStatus(m.op('GET', `/v1/offers/${offer.offer_id}`), 200)).status).toBe('awarded');
    expect((await m.expectStatus(m.op('GET', `/v1/offers/${rivalOffer.offer_id}`), 200)).status).toBe('rejected');

    const payload = { summaries: [{ paper: 1, words: 98 }], note: null };
    const result = await m.submitResult(seller, id, { payload });
    expect(result).toMatchObject({ result_id: expect.stringMatching(/^res_/), contract_id: id, seller_id: seller.agentId, status: 'submitted', payload });
    expect((await m.contract(id)).status).toBe('delivered');
    await m.expectBalance(buyer, { available: '70', held: '80' });
    await m.expectBalance(seller, { available: '0', held: '0' });

    const report = await m.expectStatus(m.verify(buyer, id, result.result_id, 'pass', { score: 0.875 }), 201);
    expect(report).toMatchObject({
      report_id: expect.any(String),
      contract_id: id,
      result_id: result.result_id,
      verifier_id: buyer.agentId,
      verdict: 'pass',
      score: 0.875,
      checks: [{ name: 'word_count', ok: true }, { name: 'coverage', ok: true, detail: 'all ten papers present' }],
    });
    const settled = await m.contract(id);
    expect(settled).toMatchObject({ status: 'settled', escrow_status: 'settled', receipt_id: expect.stringMatching(/^rcpt_/), settled_at: expect.stringMatching(ISO) });
    expect((await m.expectStatus(m.op('GET', `/v1/results/${result.result_id}`), 200)).status).toBe('accepted');
    // Fee F(80) = floor(80 × 100 / 10000) = 0.8: seller +79.2, buyer −80, fees +0.8.
    await m.expectBalance(buyer, { available: '70', held: '0' });
    await m.expectBalance(seller, { available: '79.2', held: '0' });
    await m.expectBalance(rival, { available: '0', held: '0' });

    const receipt = await m.expectStatus(m.as(buyer, 'GET', `/v1/contracts/${id}/receipt`), 200);
    expect(receipt).toMatchObject({
      receipt_id: settled.receipt_id,
      kind: 'settlement',
      contract_id: id,
      hold_id: awarded.hold_id,
      payer: buyer.agentId,
      payee: seller.agentId,
      amount: '80',
      fee: '0.8',
      refunded_amount: '0',
      currency: 'CREDIT',
      signer_public_key: exchangeKey,
    });
    expect(await m.expectStatus(m.as(seller, 'GET', `/v1/receipts/${settled.receipt_id}`), 200)).toEqual(receipt);
    expect(await m.expectStatus(m.op('GET', `/v1/receipts/${settled.receipt_id}`), 200)).toEqual(receipt);
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
    expect(verifyReceipt({ ...receipt, fee: '0' }, exchangeKey)).toBe(false);
    // Like GET /v1/receipts/{id}: an agent that is neither payer nor payee may not read it.
    expectProblem(await m.as(rival, 'GET', `/v1/contracts/${id}/receipt`), 403, 'forbidden');
    expectProblem(await m.as(rival, 'GET', `/v1/receipts/${settled.receipt_id}`), 403, 'forbidden');

    const latest = await m.expectStatus(m.as(seller, 'GET', `/v1/contracts/${id}/verification`), 200);
    expect(latest).toEqual(report);
    await m.expectLedgerOk();
  });

  it('rounds the fee down to the micro-unit: price 33.333333 → fee 0.333333, seller 33', async () => {
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '40', price: '33.333333' });
    await m.expectBalance(buyer, { available: '6.666667', held: '33.333333' });
    await m.expectStatus(m.verify(buyer, contractId, result.result_id, 'pass'), 201);
    await m.expectBalance(buyer, { available: '6.666667', held: '0' });
    await m.expectBalance(seller, { available: '33', held: '0' });
    const receipt = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/receipt`), 200);
    expect(receipt).toMatchObject({ amount: '33.333333', fee: '0.333333', payee: seller.agentId });
  });
});

describe('POST /v1/contracts/{contract_id}/verify', () => {
  it('a fail sends the contract back to awarded (escrow still held); a second result then passes and settles', async () => {
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '100', price: '100' });
    const fail = await m.expectStatus(m.verify(buyer, contractId, result.result_id, 'fail', { score: 0.25 }), 201);
    expect(fail).toMatchObject({ verdict: 'fail', score: 0.25, result_id: result.result_id });
    expect(await m.contract(contractId)).toMatchObject({ status: 'awarded', escrow_status: 'held', receipt_id: null });
    expect((await m.expectStatus(m.op('GET', `/v1/results/${result.result_id}`), 200)).status).toBe('rejected');
    await m.expectBalance(buyer, { available: '0', held: '100' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    // Nothing to verify until a new result arrives; the rejected one cannot be verified again.
    expectProblem(await m.verify(buyer, contractId, result.result_id, 'pass'), 409, 'invalid_state');

    const second = await m.submitResult(seller, contractId, { summary: 'Fixed: all ten now.' });
    expect((await m.contract(contractId)).status).toBe('delivered');
    // The old (rejected) result is no longer the one to verify.
    expectProblem(await m.verify(buyer, contractId, result.result_id, 'pass'), 409, 'invalid_state');
    await m.expectStatus(m.verify(buyer, contractId, second.result_id, 'pass'), 201);
    expect(await m.contract(contractId)).toMatchObject({ status: 'settled', escrow_status: 'settled' });
    await m.expectBalance(buyer, { available: '0', held: '0' });
    await m.expectBalance(seller, { available: '99', held: '0' });
    const latest = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/verification`), 200);
    expect(latest).toMatchObject({ result_id: second.result_id, verdict: 'pass' });
    const results = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/results`), 200);
    expect(results.data.map((r: any) => [r.result_id, r.status]).sort()).toEqual(
      [
        [result.result_id, 'rejected'],
        [second.result_id, 'accepted'],
      ].sort(),
    );
  });

  it('mode verifier: only the registered verifier signs; the buyer is refused 403 not_contract_verifier', async () => {
    const verifier = await m.newAgent('verifier');
    await m.expectStatus(m.as(verifier, 'POST', '/v1/verifiers', { name: 'Strict checker', tags: ['nlp'] }), 201);
    const buyer = await m.newAgent('vbuyer');
    const seller = await m.newAgent('vseller');
    await m.fund(buyer, '60');
    const c = await m.openContract(buyer, { budget: money('50'), verification_mode: 'verifier', verifier_id: verifier.agentId });
    expect(c).toMatchObject({ verification_mode: 'verifier', verifier_id: verifier.agentId });
    // The contract's verifier cannot also sell on it.
    expectProblem(await m.offer(verifier, c.contract_id, '50'), 403, 'conflict_of_interest');
    const offer = await m.submitOffer(seller, c.contract_id, '50');
    await m.expectStatus(m.award(c.contract_id, offer.offer_id), 200);
    const result = await m.submitResult(seller, c.contract_id);

    expectProblem(await m.verify(buyer, c.contract_id, result.result_id, 'pass'), 403, 'not_contract_verifier');
    expectProblem(await m.verify(seller, c.contract_id, result.result_id, 'pass'), 403, 'not_contract_verifier');
    const report = await m.expectStatus(m.verify(verifier, c.contract_id, result.result_id, 'pass', { score: 1 }), 201);
    expect(report).toMatchObject({ verifier_id: verifier.agentId, verdict: 'pass', score: 1 });
    expect(await m.contract(c.contract_id)).toMatchObject({ status: 'settled', escrow_status: 'settled' });
    await m.expectBalance(buyer, { available: '10', held: '0' });
    await m.expectBalance(seller, { available: '49.5', held: '0' });
    await m.expectBalance(verifier, { available: '0', held: '0' });
  });

  it('mode auto settles on result submission; a report is then 409 invalid_state', async () => {
    const { buyer, seller, contractId } = await m.awarded({ funds: '20', price: '10', contract: { budget: money('10'), verification_mode: 'auto' } });
    await m.expectBalance(buyer, { available: '10', held: '10' });
    const result = await m.submitResult(seller, contractId);
    expect(await m.contract(contractId)).toMatchObject({ status: 'settled', escrow_status: 'settled', receipt_id: expect.stringMatching(/^rcpt_/) });
    expect((await m.expectStatus(m.op('GET', `/v1/results/${result.result_id}`), 200)).status).toBe('accepted');
    await m.expectBalance(buyer, { available: '10', held: '0' });
    await m.expectBalance(seller, { available: '9.9', held: '0' });
    const receipt = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/receipt`), 200);
    expect(receipt).toMatchObject({ kind: 'settlement', amount: '10', fee: '0.1' });
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
    expectProblem(await m.verify(buyer, contractId, result.result_id, 'pass'), 409, 'invalid_state');
    expectProblem(await m.op('GET', `/v1/contracts/${contractId}/verification`), 404, 'verification_not_found');
  });

  it('refuses a forged, wrong-key or tampered report signature (400 report_signature_invalid) and settles nothing', async () => {
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '100', price: '100' });
    const stranger = await m.newAgent('forger');
    // Signed by another agent's key.
    expectProblem(await m.verify(buyer, contractId, result.result_id, 'pass', { seed: stranger.seed }), 400, 'report_signature_invalid');
    // Signed honestly as a fail, sent as a pass.
    const failReport = m.report(buyer.agentId, result.result_id, 'fail', buyer.seed);
    expectProblem(await m.as(buyer, 'POST', `/v1/contracts/${contractId}/verify`, { ...failReport, verdict: 'pass' }), 400, 'report_signature_invalid');
    // Score changed after signing.
    const signed = m.report(buyer.agentId, result.result_id, 'pass', buyer.seed, { score: 0.5 });
    expectProblem(await m.as(buyer, 'POST', `/v1/contracts/${contractId}/verify`, { ...signed, score: 0.9 }), 400, 'report_signature_invalid');
    // A check's detail added after signing.
    const checks = [{ name: 'a', ok: true }];
    const body = { verifier_id: buyer.agentId, result_id: result.result_id, verdict: 'pass' as const, score: 0.7, checks };
    const sig = signReport(buyer.seed, body);
    expectProblem(await m.as(buyer, 'POST', `/v1/contracts/${contractId}/verify`, { ...body, checks: [{ name: 'a', ok: true, detail: 'x' }], signature: sig }), 400, 'report_signature_invalid');
    // Not base64 of an ed25519 signature at all.
    expectProblem(await m.as(buyer, 'POST', `/v1/contracts/${contractId}/verify`, { ...body, signature: 'AAAA' }), 400, 'report_signature_invalid');

    expect(await m.contract(contractId)).toMatchObject({ status: 'delivered', escrow_status: 'held' });
    expectProblem(await m.op('GET', `/v1/contracts/${contractId}/verification`), 404, 'verification_not_found');
    await m.expectBalance(buyer, { available: '0', held: '100' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    // The honest signature over exactly what is sent still works.
    await m.expectStatus(m.as(buyer, 'POST', `/v1/contracts/${contractId}/verify`, { ...body, signature: sig }), 201);
  });

  it('validates the report: score outside 0–1 (400 invalid_score), unknown result (404), not delivered (409)', async () => {
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '10', price: '10', contract: { budget: money('10') } });
    expectProblem(await m.verify(buyer, contractId, result.result_id, 'pass', { score: 1.5 }), 400, 'invalid_score');
    expectProblem(await m.verify(buyer, contractId, result.result_id, 'pass', { score: -0.1 }), 400, 'invalid_score');
    expectProblem(await m.verify(buyer, contractId, 'res_00000000-0000-7000-8000-000000000000', 'pass'), 404, 'result_not_found');
    expectProblem(await m.verify(buyer, 'ctr_00000000-0000-7000-8000-000000000000', result.result_id, 'pass'), 404, 'contract_not_found');
    await m.expectStatus(m.verify(buyer, contractId, result.result_id, 'pass'), 201);
    // Settled: not delivered any more.
    expectProblem(await m.verify(buyer, contractId, result.result_id, 'pass'), 409, 'invalid_state');
    await m.expectBalance(seller, { available: '9.9', held: '0' });
  });
});

describe('GET /v1/contracts/{contract_id}/receipt', () => {
  it('is 404 receipt_not_found before settlement and for an unknown contract 404 contract_not_found', async () => {
    const { contractId } = await m.awarded({ funds: '10', price: '10', contract: { budget: money('10') } });
    expectProblem(await m.op('GET', `/v1/contracts/${contractId}/receipt`), 404, 'receipt_not_found');
    expectProblem(await m.op('GET', '/v1/contracts/ctr_00000000-0000-7000-8000-000000000000/receipt'), 404, 'contract_not_found');
  });
});

describe('GET /v1/contracts/{contract_id}/verification', () => {
  it('is 404 verification_not_found before any report, then the latest report', async () => {
    const { buyer, contractId, result } = await m.delivered({ funds: '10', price: '10', contract: { budget: money('10') } });
    expectProblem(await m.op('GET', `/v1/contracts/${contractId}/verification`), 404, 'verification_not_found');
    const report = await m.expectStatus(m.verify(buyer, contractId, result.result_id, 'fail'), 201);
    expect(await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/verification`), 200)).toEqual(report);
    expect(report).toMatchObject({ signature: expect.any(String), created_at: expect.stringMatching(ISO) });
  });
});
