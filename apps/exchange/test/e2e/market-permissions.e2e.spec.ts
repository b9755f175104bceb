import { uniqueAgentId } from './raw-agent';
import { MarketHttp, expectProblem, money } from './market-http';
import { bootStack, type Stack } from './stack';
import { eventually } from './wallet-http';

// Who may do what in the market, each rule refused with its status and code and nothing changed:
// only the awarded seller delivers, only the contract's verifier (or buyer) verifies, only the
// parties dispute, award and resolve are operator-only, frozen agents cannot act, and the acting
// agent must be the party it claims to be.

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

describe('market permissions', () => {
  it('only the awarded seller submits results (403 not_awarded_seller), even one that offered', async () => {
    const buyer = await m.newAgent('p-buyer');
    const winner = await m.newAgent('p-winner');
    const loser = await m.newAgent('p-loser');
    await m.fund(buyer, '100');
    const c = await m.openContract(buyer);
    const win = await m.submitOffer(winner, c.contract_id, '60');
    await m.submitOffer(loser, c.contract_id, '50');
    await m.expectStatus(m.award(c.contract_id, win.offer_id), 200);
    expectProblem(await m.result(loser, c.contract_id), 403, 'not_awarded_seller');
    expectProblem(await m.result(buyer, c.contract_id), 403, 'not_awarded_seller');
    // The operator acting for the loser is the loser.
    expectProblem(await m.op('POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'x' }, { 'x-agent-id': loser.agentId }), 403, 'not_awarded_seller');
    expect((await m.contract(c.contract_id)).status).toBe('awarded');
    const results = await m.expectStatus(m.op('GET', `/v1/contracts/${c.contract_id}/results`), 200);
    expect(results.data).toEqual([]);
  });

  it('only the contract’s verifier (mode verifier) or buyer (mode buyer) verifies (403 not_contract_verifier)', async () => {
    const { seller, contractId, result } = await m.delivered({ funds: '100', price: '100' });
    const stranger = await m.newAgent('p-stranger');
    expectProblem(await m.verify(stranger, contractId, result.result_id, 'pass'), 403, 'not_contract_verifier');
    expectProblem(await m.verify(seller, contractId, result.result_id, 'pass'), 403, 'not_contract_verifier');
    expect((await m.contract(contractId)).status).toBe('delivered');
  });

  it('only the buyer or the awarded seller opens a dispute (403 not_contract_party)', async () => {
    const { buyer, contractId } = await m.delivered({ funds: '100', price: '100' });
    const outsider = await m.newAgent('p-outsider');
    expectProblem(await m.openDispute(outsider, contractId), 403, 'not_contract_party');
    expectProblem(await m.op('POST', `/v1/contracts/${contractId}/disputes`, { reason: 'me too' }, { 'x-agent-id': outsider.agentId }), 403, 'not_contract_party');
    expect((await m.contract(contractId)).status).toBe('delivered');
    await m.expectBalance(buyer, { available: '0', held: '100' });
  });

  it('award and resolve refuse agent-signed requests (403 operator_token_required), even the buyer’s', async () => {
    const buyer = await m.newAgent('p-award-buyer');
    const seller = await m.newAgent('p-award-seller');
    await m.fund(buyer, '100');
    const c = await m.openContract(buyer);
    const offer = await m.submitOffer(seller, c.contract_id, '100');
    expectProblem(await m.as(buyer, 'POST', `/v1/contracts/${c.contract_id}/award/${offer.offer_id}`), 403, 'operator_token_required');
    expectProblem(await m.as(seller, 'POST', `/v1/contracts/${c.contract_id}/award/${offer.offer_id}`, {}), 403, 'operator_token_required');
    expect((await m.contract(c.contract_id)).status).toBe('open');
    await m.expectBalance(buyer, { available: '100', held: '0' });
    // The operator acting for an agent is still the operator: the award goes through.
    await m.expectStatus(m.award(c.contract_id, offer.offer_id, undefined, { 'x-agent-id': buyer.agentId }), 200);
    await m.submitResult(seller, c.contract_id);
    const dispute = await m.expectStatus(m.openDispute(buyer, c.contract_id), 201);
    expectProblem(await m.as(seller, 'POST', `/v1/disputes/${dispute.dispute_id}/resolve`, { outcome: 'seller', rationale: 'mine' }), 403, 'operator_token_required');
    expect((await m.expectStatus(m.op('GET', `/v1/disputes/${dispute.dispute_id}`), 200)).status).toBe('open');
  });

  it('a frozen agent cannot act (403 agent_frozen): signed, through the operator, or named as a party', async () => {
    const buyer = await m.newAgent('p-frozen-buyer');
    const seller = await m.newAgent('p-frozen-seller');
    await m.fund(buyer, '100');
    const c = await m.openContract(buyer);
    const offer = await m.submitOffer(seller, c.contract_id, '100');
    await m.expectStatus(m.award(c.contract_id, offer.offer_id), 200);
    await m.expectStatus(m.op('POST', `/v1/agents/${seller.agentId}/freeze`, { reason: 'fraud review' }), 200);

    expectProblem(await m.result(seller, c.contract_id), 403, 'agent_frozen');
    expectProblem(await m.op('POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'x' }, { 'x-agent-id': seller.agentId }), 403, 'agent_frozen');
    expectProblem(await m.openDispute(seller, c.contract_id), 403, 'agent_frozen');
    // The operator naming the frozen agent as the party (no acting agent): the market refuses it
    // once its identity cache (AGENT_CACHE_TTL_MS) has seen the freeze.
    const named = await eventually(
      () => m.op('POST', '/v1/listings', { seller_id: seller.agentId, title: 'Frozen listing', price: money('5') }),
      (r) => r.status !== 201,
      40,
    );
    expectProblem(named, 403, 'agent_frozen');
    const contract = await eventually(
      () => m.op('POST', '/v1/contracts', m.contractBody({ buyer_id: seller.agentId })),
      (r) => r.status !== 201,
      40,
    );
    expectProblem(contract, 403, 'agent_frozen');
    expect((await m.contract(c.contract_id)).status).toBe('awarded');

    await m.expectStatus(m.op('POST', `/v1/agents/${seller.agentId}/unfreeze`, { reason: 'cleared' }), 200);
    await eventually(() => m.result(seller, c.contract_id), (r) => r.status === 201, 40);
    expect((await m.contract(c.contract_id)).status).toBe('delivered');
  });

  it('the acting agent must be the party it claims to be (403 acting_agent_mismatch)', async () => {
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '100', price: '100' });
    const other = await m.newAgent('p-other');
    expectProblem(await m.createContract(other, { buyer_id: buyer.agentId }), 403, 'acting_agent_mismatch');
    expectProblem(await m.op('POST', '/v1/contracts', m.contractBody({ buyer_id: buyer.agentId }), { 'x-agent-id': other.agentId }), 403, 'acting_agent_mismatch');
    const c2 = await m.openContract(buyer);
    expectProblem(await m.offer(other, c2.contract_id, '10', { seller_id: seller.agentId }), 403, 'acting_agent_mismatch');
    expectProblem(await m.result(other, contractId, { seller_id: seller.agentId }), 403, 'acting_agent_mismatch');
    expectProblem(await m.openDispute(other, contractId, { opened_by: buyer.agentId }), 403, 'acting_agent_mismatch');
    expectProblem(await m.as(other, 'POST', '/v1/listings', { seller_id: seller.agentId, title: 'Not mine', price: money('5') }), 403, 'acting_agent_mismatch');
    expectProblem(await m.as(other, 'POST', '/v1/verifiers', { verifier_id: seller.agentId, name: 'Not me' }), 403, 'acting_agent_mismatch');
    // A report signed with the buyer's own key but sent by another agent.
    const report = m.report(buyer.agentId, result.result_id, 'pass', buyer.seed);
    expectProblem(await m.as(other, 'POST', `/v1/contracts/${contractId}/verify`, report), 403, 'acting_agent_mismatch');
    expect((await m.contract(contractId)).status).toBe('delivered');
    expect((await m.contract(c2.contract_id)).status).toBe('open');
  });

  it('an empty party with no acting agent is 400 validation_failed; an unknown party 404 agent_not_found; self-dealing 403', async () => {
    const body = m.contractBody();
    const missing = expectProblem(await m.op('POST', '/v1/contracts', body), 400, 'validation_failed');
    expect(JSON.stringify(missing)).toContain('buyer_id');
    expectProblem(await m.op('POST', '/v1/contracts', { ...body, buyer_id: uniqueAgentId('ghost') }), 404, 'agent_not_found');
    // The operator acting for the buyer: buyer_id defaults to the acting agent.
    const buyer = await m.newAgent('p-default-buyer');
    const c = await m.expectStatus(m.op('POST', '/v1/contracts', body, { 'x-agent-id': buyer.agentId }), 201);
    expect(c.buyer_id).toBe(buyer.agentId);
    const byOperator = await m.expectStatus(m.op('POST', '/v1/contracts', { ...body, buyer_id: buyer.agentId }), 201);
    expect(byOperator.buyer_id).toBe(buyer.agentId);
    expectProblem(await m.offer(buyer, c.contract_id, '10'), 403, 'self_dealing');
    expectProblem(await m.op('POST', `/v1/contracts/${c.contract_id}/offers`, { price: money('10'), eta: new Date(Date.now() + 3_600_000).toISOString() }), 400, 'validation_failed');
  });

  it('only the offer’s seller (or the operator) withdraws it (403 not_offer_seller)', async () => {
    const buyer = await m.newAgent('p-wd-buyer');
    const seller = await m.newAgent('p-wd-seller');
    const c = await m.openContract(buyer);
    const offer = await m.submitOffer(seller, c.contract_id, '10');
    expectProblem(await m.as(buyer, 'POST', `/v1/offers/${offer.offer_id}/withdraw`, {}), 403, 'not_offer_seller');
    expect((await m.expectStatus(m.op('GET', `/v1/offers/${offer.offer_id}`), 200)).status).toBe('submitted');
    const byOperator = await m.expectStatus(m.op('POST', `/v1/offers/${offer.offer_id}/withdraw`), 200);
    expect(byOperator.status).toBe('withdrawn');
  });
});
