import { errors } from '@exchange/platform';
import { marketV1, walletV1 } from '@exchange/proto';
import { expectProblem, registerAgent, TestAgent, uniqueAgentId } from './harness';
import { asOperator, buyer, contractBody, DEADLINE, freshKey, h, ISO, M, newContract, seller, signed, useMarketHarness } from './market-setup';

// The Contracts area through app.inject() against real grpc-js servers (fake identity, wallet-ledger
// and market): HTTP ⇄ gRPC mapping, the acting agent in metadata, optional idempotency keys, auth
// modes and error mapping. Listings and offers: market-offers.spec.ts; results, verification and
// disputes: market-delivery.spec.ts.

useMarketHarness();

describe('POST /v1/contracts', () => {
  it('should map the body to CreateContract, default the party to the signer and answer 201 with the contract JSON', async () => {
    const res = await signed(buyer, 'POST', '/v1/contracts', contractBody({ tags: ['nlp'], verification_mode: 'auto' }));
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    const call = h.market.lastCall<marketV1.CreateContractRequest>('createContract');
    expect(call.request).toEqual({
      buyerId: '',
      title: 'Summarise tickets',
      description: '',
      tags: ['nlp'],
      budget: { amount: '100', currency: 'CREDIT' },
      deadline: new Date(DEADLINE),
      acceptanceCriteria: 'one paragraph each',
      verificationMode: M.VerificationMode.VERIFICATION_MODE_AUTO,
      buyerPrivate: false,
      labels: {},
      inputRefs: [],
      idempotencyKey: '',
    });
    expect(call.ctx).toMatchObject({ actor: `agent:${buyer.agentId}`, agentId: buyer.agentId });
    expect(res.json()).toEqual({
      contract_id: expect.stringMatching(/^ctr_/),
      buyer_id: buyer.agentId,
      buyer_private: false,
      buyer_alias: null,
      title: 'Summarise tickets',
      description: '',
      tags: ['nlp'],
      budget: { amount: '100', currency: 'CREDIT' },
      deadline: DEADLINE,
      acceptance_criteria: 'one paragraph each',
      verification_mode: 'auto',
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
      template_id: null,
      work_product_template_id: null,
      fixture_id: null,
      resale_of: null,
      resale_review: null,
      sandbox: false,
      corrected_at: null,
      correction_receipt_id: null,
      correction_reason: null,
      labels: {},
      input_refs: [],
    });
  });

  it('should pass the catalog and resale references, and leave budget, deadline and criteria to a template', async () => {
    const res = await signed(buyer, 'POST', '/v1/contracts', {
      title: 'Fix the parser',
      template_id: 'code-change-with-tests',
      work_product_template_id: 'patch-with-tests',
      fixture_id: 'json-extract-golden-1',
      resale_of: 'ctr_parent-1',
    });
    expect(res.statusCode).toBe(201);
    const req = h.market.lastCall<marketV1.CreateContractRequest>('createContract').request;
    expect(req).toMatchObject({
      templateId: 'code-change-with-tests',
      workProductTemplateId: 'patch-with-tests',
      fixtureId: 'json-extract-golden-1',
      resaleOf: 'ctr_parent-1',
      acceptanceCriteria: '',
    });
    expect(req.budget).toBeUndefined();
    expect(req.deadline).toBeUndefined();
    expect(res.json()).toMatchObject({
      template_id: 'code-change-with-tests',
      work_product_template_id: 'patch-with-tests',
      fixture_id: 'json-extract-golden-1',
      resale_of: 'ctr_parent-1',
    });
  });

  it('should carry the market’s 400 when neither the body nor a template gives a budget, and refuse a malformed fixture_id', async () => {
    h.market.failNext('createContract', errors.invalidArgument('validation_failed', 'budget is required without a template that suggests one'));
    expectProblem(await signed(buyer, 'POST', '/v1/contracts', { title: 'no budget', acceptance_criteria: 'x', deadline: DEADLINE }), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'POST', '/v1/contracts', contractBody({ fixture_id: 'Not A Fixture' })), 400, 'validation_failed');
  });

  it('should map a resale contract’s review', async () => {
    const created = await newContract();
    const c = h.market.contracts.get(created.contract_id)!;
    h.market.contracts.set(c.contractId, {
      ...c,
      resaleOf: 'ctr_parent-1',
      resaleReview: {
        decisionRef: 'rld_1',
        contractId: c.contractId,
        resaleOf: 'ctr_parent-1',
        rootContractId: 'ctr_parent-1',
        depth: 1,
        lineage: ['ctr_parent-1'],
        status: M.ResaleReviewStatus.RESALE_REVIEW_STATUS_PENDING,
        createdAt: new Date(DEADLINE),
        updatedAt: new Date(DEADLINE),
      },
    });
    const res = await signed(buyer, 'GET', `/v1/contracts/${c.contractId}`);
    expect(res.json().resale_review).toEqual({
      decision_ref: 'rld_1',
      contract_id: c.contractId,
      resale_of: 'ctr_parent-1',
      root_contract_id: 'ctr_parent-1',
      depth: 1,
      lineage: ['ctr_parent-1'],
      status: 'pending',
      decided_by: null,
      reason: null,
      decided_at: null,
      created_at: DEADLINE,
      updated_at: DEADLINE,
    });
  });

  it('should pass buyer_private and show the alias the market answers', async () => {
    const res = await signed(buyer, 'POST', '/v1/contracts', contractBody({ buyer_private: true }));
    expect(res.statusCode).toBe(201);
    expect(h.market.lastCall<marketV1.CreateContractRequest>('createContract').request.buyerPrivate).toBe(true);
    expect(res.json()).toMatchObject({ buyer_id: buyer.agentId, buyer_private: true, buyer_alias: 'anon:fakealiasbuy' });
  });

  it('should pass the operator actor and X-Agent-Id, and replay the same key with Idempotent-Replayed: true', async () => {
    const body = contractBody({ buyer_id: buyer.agentId, idempotency_key: freshKey() });
    const first = await asOperator('POST', '/v1/contracts', body, { 'x-agent-id': buyer.agentId });
    const again = await asOperator('POST', '/v1/contracts', body, { 'x-agent-id': buyer.agentId });
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(h.market.lastCall('createContract').ctx).toMatchObject({ actor: 'operator:default', agentId: buyer.agentId });
    expect(h.market.lastCall<marketV1.CreateContractRequest>('createContract').request.idempotencyKey).toBe(body.idempotency_key);
  });

  it('should take the key from the Idempotency-Key header and answer 422 idempotency_key_reused for another body', async () => {
    const key = freshKey();
    expect((await signed(buyer, 'POST', '/v1/contracts', contractBody(), { 'idempotency-key': key })).statusCode).toBe(201);
    expectProblem(await signed(buyer, 'POST', '/v1/contracts', contractBody({ title: 'other' }), { 'idempotency-key': key }), 422, 'idempotency_key_reused');
  });

  it('should refuse unknown fields and a bad enum (400 validation_failed) without calling the market', async () => {
    const before = h.market.calls.length;
    expectProblem(await signed(buyer, 'POST', '/v1/contracts', contractBody({ colour: 'red' })), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'POST', '/v1/contracts', contractBody({ verification_mode: 'magic' })), 400, 'validation_failed');
    expect(h.market.calls.length).toBe(before);
  });

  it('should carry the market’s domain error (400 invalid_deadline) and 401 without credentials', async () => {
    h.market.failNext('createContract', errors.invalidArgument('invalid_deadline', 'deadline must be in the future'));
    expectProblem(await signed(buyer, 'POST', '/v1/contracts', contractBody()), 400, 'invalid_deadline');
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/contracts', payload: contractBody() }), 401, 'unauthenticated');
  });

  it('should answer 403 acting_agent_mismatch as the market says', async () => {
    h.market.failNext('createContract', errors.permissionDenied('acting_agent_mismatch', 'buyer_id is not the acting agent'));
    expectProblem(await signed(buyer, 'POST', '/v1/contracts', contractBody({ buyer_id: seller.agentId })), 403, 'acting_agent_mismatch');
  });
});

describe('GET /v1/contracts', () => {
  it('should pass the filters and the page, and answer {data, next_cursor}', async () => {
    await newContract();
    const res = await signed(buyer, 'GET', `/v1/contracts?buyer_id=${encodeURIComponent(buyer.agentId)}&status=awarded&limit=5&cursor=abc`);
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listContracts').request).toEqual({
      page: { limit: 5, cursor: 'abc' },
      buyerId: buyer.agentId,
      status: M.ContractStatus.CONTRACT_STATUS_AWARDED,
    });
    expect(res.json()).toEqual({ data: expect.arrayContaining([expect.objectContaining({ status: expect.any(String) })]), next_cursor: 'fake-cursor' });
  });

  it('should refuse an unknown status (400 validation_failed)', async () => {
    expectProblem(await signed(buyer, 'GET', '/v1/contracts?status=nope'), 400, 'validation_failed');
  });
});

describe('GET /v1/contracts/{contract_id}', () => {
  it('should read a contract, and 404 contract_not_found for an unknown one', async () => {
    const created = await newContract();
    const res = await signed(seller, 'GET', `/v1/contracts/${created.contract_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
    expectProblem(await signed(seller, 'GET', '/v1/contracts/ctr_missing'), 404, 'contract_not_found');
  });
});

describe('POST /v1/contracts/{contract_id}/cancel', () => {
  it('should cancel with an optional reason, with or without a body', async () => {
    const a = await newContract();
    const res = await signed(buyer, 'POST', `/v1/contracts/${a.contract_id}/cancel`, { reason: 'changed my mind' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', cancel_reason: 'changed my mind' });
    const b = await newContract();
    const bare = await asOperator('POST', `/v1/contracts/${b.contract_id}/cancel`);
    expect(bare.statusCode).toBe(200);
    expect(h.market.lastCall('cancelContract').request).toEqual({ contractId: b.contract_id, idempotencyKey: '' });
  });

  it('should answer 403 not_allowed_to_cancel and 503 wallet_unavailable with their codes', async () => {
    const c = await newContract();
    h.market.failNext('cancelContract', errors.permissionDenied('not_allowed_to_cancel', 'only the buyer or an operator'));
    expectProblem(await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/cancel`, {}), 403, 'not_allowed_to_cancel');
    h.market.failNext('cancelContract', errors.unavailable('wallet_unavailable', 'wallet-ledger unreachable'));
    expectProblem(await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/cancel`, {}), 503, 'wallet_unavailable');
  });
});

describe('GET /v1/contracts/{contract_id}/receipt', () => {
  const receipt = (receiptId: string, contractId: string): walletV1.Receipt => ({
    receiptId,
    kind: walletV1.ReceiptKind.RECEIPT_KIND_SETTLEMENT,
    contractId,
    holdId: 'hld_1',
    payer: buyer.agentId,
    payee: seller.agentId,
    amount: '90',
    fee: '0.9',
    refundedAmount: '0',
    currency: 'CREDIT',
    journalEntryIds: ['jrn_1'],
    settledAt: new Date('2026-11-21T18:00:00.000Z'),
    signerPublicKey: 'pk',
    signature: 'sig',
  });

  it('should read the contract’s receipt from wallet-ledger, for the payer and not for a stranger', async () => {
    const c = await newContract();
    h.market.contracts.set(c.contract_id, { ...h.market.contracts.get(c.contract_id)!, receiptId: 'rcpt_for_contract' });
    h.wallet.receipts.set('rcpt_for_contract', receipt('rcpt_for_contract', c.contract_id));
    const res = await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}/receipt`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ receipt_id: 'rcpt_for_contract', contract_id: c.contract_id, kind: 'settlement', amount: '90', fee: '0.9' });
    expect(h.wallet.lastCall('getReceipt').request).toEqual({ receiptId: 'rcpt_for_contract', contractId: '' });
    const stranger = new TestAgent(uniqueAgentId('stranger'));
    await registerAgent(h.app, stranger);
    expectProblem(await signed(stranger, 'GET', `/v1/contracts/${c.contract_id}/receipt`), 403, 'forbidden');
  });

  it('should answer 404 receipt_not_found while no money has moved', async () => {
    const c = await newContract();
    expectProblem(await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}/receipt`), 404, 'receipt_not_found');
    expectProblem(await signed(buyer, 'GET', '/v1/contracts/ctr_missing/receipt'), 404, 'contract_not_found');
  });
});
