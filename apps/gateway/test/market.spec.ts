import { errors } from '@exchange/platform';
import { marketV1, walletV1 } from '@exchange/proto';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// The market areas (Contracts, Listings, Offers, Results, Disputes, Verification) through
// app.inject() against real grpc-js servers (fake identity, wallet-ledger and market): HTTP ⇄ gRPC
// mapping, the acting agent in metadata, optional idempotency keys, auth modes and error mapping.

const M = marketV1;
let h: Harness;
let buyer: TestAgent;
let seller: TestAgent;

beforeAll(async () => {
  h = await startHarness();
  buyer = new TestAgent(uniqueAgentId('buyer'));
  seller = new TestAgent(uniqueAgentId('seller'));
  await registerAgent(h.app, buyer);
  await registerAgent(h.app, seller);
});

afterAll(async () => {
  await h.close();
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DEADLINE = '2030-01-01T00:00:00.000Z';
const SHA = `sha256:${'ab'.repeat(32)}`;
let keySeq = 0;
const freshKey = () => `mkt-key-${Date.now()}-${keySeq++}`;

function signed(agent: TestAgent, method: 'GET' | 'POST', url: string, body?: unknown, extra: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return h.app.inject({
    method,
    url,
    headers: { ...agent.signedHeaders(method, url, text), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
    ...(body === undefined ? {} : { payload: text }),
  });
}
const asOperator = (method: 'GET' | 'POST', url: string, payload?: unknown, extra: Record<string, string> = {}) =>
  h.app.inject({ method, url, headers: operator(extra), ...(payload === undefined ? {} : { payload: payload as object }) });

const contractBody = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  title: 'Summarise tickets',
  budget: { amount: '100', currency: 'CREDIT' },
  deadline: DEADLINE,
  acceptance_criteria: 'one paragraph each',
  ...over,
});

async function newContract(over: Record<string, unknown> = {}) {
  const res = await signed(buyer, 'POST', '/v1/contracts', contractBody(over));
  expect(res.statusCode).toBe(201);
  return res.json();
}
async function newOffer(contractId: string) {
  const res = await signed(seller, 'POST', `/v1/contracts/${contractId}/offers`, { price: { amount: '90', currency: 'CREDIT' }, eta: DEADLINE });
  expect(res.statusCode).toBe(201);
  return res.json();
}

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

describe('POST /v1/listings', () => {
  it('should create a listing (201) with a null turnaround when absent', async () => {
    const res = await signed(seller, 'POST', '/v1/listings', { title: 'Summaries', tags: ['nlp'], price: { amount: '80', currency: 'CREDIT' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      listing_id: expect.stringMatching(/^lst_/),
      seller_id: seller.agentId,
      title: 'Summaries',
      description: '',
      tags: ['nlp'],
      price: { amount: '80', currency: 'CREDIT' },
      turnaround: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(h.market.lastCall('createListing').request).toMatchObject({ sellerId: '', tags: ['nlp'], idempotencyKey: '' });
  });

  it('should carry 400 invalid_turnaround', async () => {
    h.market.failNext('createListing', errors.invalidArgument('invalid_turnaround', 'turnaround must be an ISO 8601 duration'));
    expectProblem(await signed(seller, 'POST', '/v1/listings', { title: 'x', price: { amount: '1', currency: 'CREDIT' }, turnaround: '2 days' }), 400, 'invalid_turnaround');
  });
});

describe('GET /v1/listings', () => {
  it('should filter by tag', async () => {
    const res = await signed(buyer, 'GET', '/v1/listings?tag=nlp');
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listListings').request).toEqual({ page: { limit: 0, cursor: '' }, tag: 'nlp' });
    expect(res.json().data.every((l: { tags: string[] }) => l.tags.includes('nlp'))).toBe(true);
  });

  it('should refuse a limit above 200', async () => {
    expectProblem(await signed(buyer, 'GET', '/v1/listings?limit=500'), 400, 'validation_failed');
  });
});

describe('GET /v1/listings/{listing_id}', () => {
  it('should read a listing and 404 listing_not_found', async () => {
    const created = (await signed(seller, 'POST', '/v1/listings', { title: 'L', price: { amount: '5', currency: 'CREDIT' }, turnaround: 'PT2H' })).json();
    const res = await signed(buyer, 'GET', `/v1/listings/${created.listing_id}`);
    expect(res.json()).toEqual(created);
    expectProblem(await signed(buyer, 'GET', '/v1/listings/lst_missing'), 404, 'listing_not_found');
  });
});

describe('POST /v1/contracts/{contract_id}/offers', () => {
  it('should submit an offer (201) mapping price, eta and terms', async () => {
    const c = await newContract();
    const res = await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/offers`, {
      price: { amount: '90', currency: 'CREDIT' },
      eta: DEADLINE,
      terms: 'json',
      idempotency_key: 'offer-key-1',
    });
    expect(res.statusCode).toBe(201);
    expect(h.market.lastCall('submitOffer').request).toEqual({
      contractId: c.contract_id,
      sellerId: '',
      price: { amount: '90', currency: 'CREDIT' },
      eta: new Date(DEADLINE),
      terms: 'json',
      idempotencyKey: 'offer-key-1',
    });
    expect(res.json()).toEqual({
      offer_id: expect.stringMatching(/^ofr_/),
      contract_id: c.contract_id,
      seller_id: seller.agentId,
      price: { amount: '90', currency: 'CREDIT' },
      eta: DEADLINE,
      terms: 'json',
      status: 'submitted',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
  });

  it('should carry 403 self_dealing and 409 offer_exists', async () => {
    const c = await newContract();
    h.market.failNext('submitOffer', errors.permissionDenied('self_dealing', 'the buyer cannot offer on its own contract'));
    expectProblem(await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/offers`, { price: { amount: '1', currency: 'CREDIT' }, eta: DEADLINE }), 403, 'self_dealing');
    h.market.failNext('submitOffer', errors.alreadyExists('offer_exists', 'a submitted offer exists'));
    expectProblem(await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/offers`, { price: { amount: '1', currency: 'CREDIT' }, eta: DEADLINE }), 409, 'offer_exists');
  });
});

describe('GET /v1/contracts/{contract_id}/offers', () => {
  it('should list with the seller and status filters; unknown contract → 404', async () => {
    const c = await newContract();
    await newOffer(c.contract_id);
    const res = await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}/offers?seller_id=${encodeURIComponent(seller.agentId)}&status=submitted`);
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listOffers').request).toEqual({
      contractId: c.contract_id,
      page: { limit: 0, cursor: '' },
      sellerId: seller.agentId,
      status: M.OfferStatus.OFFER_STATUS_SUBMITTED,
    });
    expect(res.json()).toEqual({ data: [expect.objectContaining({ contract_id: c.contract_id, status: 'submitted' })], next_cursor: null });
    expectProblem(await signed(buyer, 'GET', '/v1/contracts/ctr_missing/offers'), 404, 'contract_not_found');
  });
});

describe('GET /v1/offers/{offer_id}', () => {
  it('should read an offer and 404 offer_not_found', async () => {
    const c = await newContract();
    const o = await newOffer(c.contract_id);
    expect((await signed(buyer, 'GET', `/v1/offers/${o.offer_id}`)).json()).toEqual(o);
    expectProblem(await signed(buyer, 'GET', '/v1/offers/ofr_missing'), 404, 'offer_not_found');
  });
});

describe('POST /v1/offers/{offer_id}/withdraw', () => {
  it('should withdraw (200) and carry 403 not_offer_seller', async () => {
    const c = await newContract();
    const o = await newOffer(c.contract_id);
    const res = await signed(seller, 'POST', `/v1/offers/${o.offer_id}/withdraw`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ offer_id: o.offer_id, status: 'withdrawn' });
    h.market.failNext('withdrawOffer', errors.permissionDenied('not_offer_seller', 'not the offer’s seller'));
    expectProblem(await signed(buyer, 'POST', `/v1/offers/${o.offer_id}/withdraw`, {}), 403, 'not_offer_seller');
  });
});

describe('POST /v1/contracts/{contract_id}/award/{offer_id}', () => {
  it('should award as operator (200 Contract) with the key from the header, replayed the second time', async () => {
    const c = await newContract();
    const o = await newOffer(c.contract_id);
    const key = freshKey();
    const url = `/v1/contracts/${c.contract_id}/award/${o.offer_id}`;
    const res = await asOperator('POST', url, undefined, { 'idempotency-key': key });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      contract_id: c.contract_id,
      status: 'awarded',
      seller_id: seller.agentId,
      awarded_offer_id: o.offer_id,
      price: { amount: '90', currency: 'CREDIT' },
      hold_id: expect.stringMatching(/^hld_/),
      escrow_status: 'held',
      awarded_at: expect.stringMatching(ISO),
    });
    expect(h.market.lastCall('awardOffer').request).toEqual({ contractId: c.contract_id, offerId: o.offer_id, idempotencyKey: key });
    const again = await asOperator('POST', url, undefined, { 'idempotency-key': key });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(res.json());
  });

  it('should be operator-only: an agent-signed request is 403 without reaching the market', async () => {
    const c = await newContract();
    const o = await newOffer(c.contract_id);
    const before = h.market.calls.filter((x) => x.method === 'awardOffer').length;
    const res = await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/award/${o.offer_id}`, {});
    expect(res.statusCode).toBe(403);
    expect(h.market.calls.filter((x) => x.method === 'awardOffer').length).toBe(before);
  });

  it('should answer 409 insufficient_funds and 503 wallet_unavailable', async () => {
    const c = await newContract();
    const o = await newOffer(c.contract_id);
    const url = `/v1/contracts/${c.contract_id}/award/${o.offer_id}`;
    h.market.failNext('awardOffer', errors.failedPrecondition('insufficient_funds', 'insufficient funds', { available: '10' }));
    const problem = expectProblem(await asOperator('POST', url, {}), 409, 'insufficient_funds');
    expect(problem.available).toBe('10');
    h.market.failNext('awardOffer', errors.unavailable('wallet_unavailable', 'the hold is pending'));
    expectProblem(await asOperator('POST', url, {}), 503, 'wallet_unavailable');
  });

  it('should answer 409 invalid_state with current and wanted', async () => {
    h.market.failNext('awardOffer', errors.invalidState('contract', 'cancelled', 'awarded'));
    const problem = expectProblem(await asOperator('POST', '/v1/contracts/ctr_x/award/ofr_y', {}), 409, 'invalid_state');
    expect(problem).toMatchObject({ current: 'cancelled', wanted: 'awarded', detail: 'contract is cancelled, cannot become awarded' });
  });
});

describe('POST /v1/contracts/{contract_id}/results', () => {
  it('should submit a result (201) with any JSON payload, round-tripped', async () => {
    const c = await newContract();
    const payload = { summaries: [{ id: 1, text: 'ok' }], n: 1.5, flag: null };
    const res = await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'done', artifact_refs: [SHA], payload });
    expect(res.statusCode).toBe(201);
    expect(h.market.lastCall('submitResult').request).toEqual({
      contractId: c.contract_id,
      sellerId: '',
      summary: 'done',
      artifactRefs: [SHA],
      payloadJson: JSON.stringify(payload),
      idempotencyKey: '',
    });
    expect(res.json()).toEqual({
      result_id: expect.stringMatching(/^res_/),
      contract_id: c.contract_id,
      seller_id: seller.agentId,
      summary: 'done',
      artifact_refs: [SHA],
      payload,
      status: 'submitted',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
  });

  it('should answer payload null when none was sent, and carry 403 not_awarded_seller', async () => {
    const c = await newContract();
    const res = await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'done', payload: 'a string' });
    expect(res.json().payload).toBe('a string');
    const bare = await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'again' });
    expect(bare.json()).toMatchObject({ payload: null, artifact_refs: [] });
    h.market.failNext('submitResult', errors.permissionDenied('not_awarded_seller', 'only the awarded seller'));
    expectProblem(await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'x' }), 403, 'not_awarded_seller');
  });
});

describe('GET /v1/contracts/{contract_id}/results', () => {
  it('should list with filters and 404 for an unknown contract', async () => {
    const c = await newContract();
    await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'r' });
    const res = await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}/results?status=submitted`);
    expect(res.json()).toEqual({ data: [expect.objectContaining({ summary: 'r', status: 'submitted' })], next_cursor: null });
    expect(h.market.lastCall('listResults').request).toEqual({ contractId: c.contract_id, page: { limit: 0, cursor: '' }, status: M.ResultStatus.RESULT_STATUS_SUBMITTED });
    expectProblem(await signed(buyer, 'GET', '/v1/contracts/ctr_missing/results'), 404, 'contract_not_found');
  });
});

describe('GET /v1/results/{result_id}', () => {
  it('should read a result and 404 result_not_found', async () => {
    const c = await newContract();
    const r = (await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'r', payload: [1, 2] })).json();
    expect((await signed(buyer, 'GET', `/v1/results/${r.result_id}`)).json()).toEqual(r);
    expectProblem(await signed(buyer, 'GET', '/v1/results/res_missing'), 404, 'result_not_found');
  });
});

describe('POST /v1/contracts/{contract_id}/verify', () => {
  it('should pass the report through (201) with checks exactly as sent and null details in the answer', async () => {
    const c = await newContract();
    const body = {
      result_id: 'res_1',
      verdict: 'pass',
      score: 0.92,
      checks: [{ name: 'format', ok: true }, { name: 'coverage', ok: false, detail: '39/40' }],
      signature: 'c2ln',
    };
    const res = await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/verify`, body);
    expect(res.statusCode).toBe(201);
    expect(h.market.lastCall('submitVerification').request).toEqual({
      contractId: c.contract_id,
      verifierId: '',
      resultId: 'res_1',
      verdict: M.Verdict.VERDICT_PASS,
      score: 0.92,
      checks: [{ name: 'format', ok: true }, { name: 'coverage', ok: false, detail: '39/40' }],
      signature: 'c2ln',
      idempotencyKey: '',
    });
    expect(res.json()).toEqual({
      report_id: expect.stringMatching(/^rpt_/),
      contract_id: c.contract_id,
      result_id: 'res_1',
      verifier_id: buyer.agentId,
      verdict: 'pass',
      score: 0.92,
      // As signed (issue 13): no `detail` key where none was sent (was `detail: null`).
      checks: [
        { name: 'format', ok: true },
        { name: 'coverage', ok: false, detail: '39/40' },
      ],
      signature: 'c2ln',
      created_at: expect.stringMatching(ISO),
    });
  });

  it('should carry 400 report_signature_invalid and refuse a verdict outside pass|fail', async () => {
    h.market.failNext('submitVerification', errors.invalidArgument('report_signature_invalid', 'signature does not verify'));
    const body = { result_id: 'res_1', verdict: 'fail', score: 0.1, signature: 'c2ln' };
    expectProblem(await signed(buyer, 'POST', '/v1/contracts/ctr_x/verify', body), 400, 'report_signature_invalid');
    expectProblem(await signed(buyer, 'POST', '/v1/contracts/ctr_x/verify', { ...body, verdict: 'maybe' }), 400, 'validation_failed');
  });
});

describe('GET /v1/contracts/{contract_id}/verification', () => {
  it('should answer the latest report, and 404 verification_not_found before any', async () => {
    const c = await newContract();
    expectProblem(await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}/verification`), 404, 'verification_not_found');
    const report = (await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/verify`, { result_id: 'res_2', verdict: 'fail', score: 0, signature: 'c2ln' })).json();
    const res = await signed(seller, 'GET', `/v1/contracts/${c.contract_id}/verification`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...report, checks: [] });
  });
});

describe('GET /v1/telemetry/verification', () => {
  it('should default the window to all and turn int64 strings into numbers', async () => {
    const res = await signed(buyer, 'GET', '/v1/telemetry/verification');
    expect(h.market.lastCall('getVerificationMetrics').request).toEqual({ window: M.VerificationWindow.VERIFICATION_WINDOW_ALL });
    expect(res.json()).toEqual({ window: 'all', reports: 4, passed: 3, failed: 1, pass_rate: 0.75, median_latency_ms: 5400 });
  });

  it('should answer nulls without reports and refuse an unknown window', async () => {
    const res = await signed(buyer, 'GET', '/v1/telemetry/verification?window=1h');
    expect(res.json()).toEqual({ window: '1h', reports: 0, passed: 0, failed: 0, pass_rate: null, median_latency_ms: null });
    expectProblem(await signed(buyer, 'GET', '/v1/telemetry/verification?window=2w'), 400, 'validation_failed');
  });
});

describe('POST /v1/verifiers', () => {
  it('should register a verifier profile (201) and carry 409 verifier_exists', async () => {
    const verifier = new TestAgent(uniqueAgentId('verifier'));
    await registerAgent(h.app, verifier);
    const res = await signed(verifier, 'POST', '/v1/verifiers', { name: 'Checker', tags: ['nlp'], fee: { amount: '2', currency: 'CREDIT' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      verifier_id: verifier.agentId,
      name: 'Checker',
      description: '',
      tags: ['nlp'],
      fee: { amount: '2', currency: 'CREDIT' },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    h.market.failNext('registerVerifier', errors.alreadyExists('verifier_exists', 'verifier exists'));
    expectProblem(await signed(verifier, 'POST', '/v1/verifiers', { name: 'Checker' }), 409, 'verifier_exists');
  });
});

describe('GET /v1/verifiers', () => {
  it('should list verifiers with a null fee when none', async () => {
    await asOperator('POST', '/v1/verifiers', { verifier_id: seller.agentId, name: 'No fee' }, { 'x-agent-id': seller.agentId });
    const res = await signed(buyer, 'GET', '/v1/verifiers?limit=10');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toContainEqual(expect.objectContaining({ name: 'No fee', fee: null }));
    expect(h.market.lastCall('listVerifiers').request).toEqual({ page: { limit: 10, cursor: '' } });
  });
});

describe('POST /v1/verifier-listings', () => {
  it('should create a verifier listing (201) and carry 404 verifier_not_found', async () => {
    const res = await signed(seller, 'POST', '/v1/verifier-listings', { title: 'Checks', price: { amount: '2', currency: 'CREDIT' }, turnaround: 'PT2H' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ verifier_listing_id: expect.stringMatching(/^vrf_/), verifier_id: seller.agentId, turnaround: 'PT2H', tags: [] });
    h.market.failNext('createVerifierListing', errors.notFound('verifier', buyer.agentId));
    expectProblem(await signed(buyer, 'POST', '/v1/verifier-listings', { title: 'C', price: { amount: '2', currency: 'CREDIT' }, turnaround: 'PT2H' }), 404, 'verifier_not_found');
  });

  it('should require turnaround (400 validation_failed)', async () => {
    expectProblem(await signed(seller, 'POST', '/v1/verifier-listings', { title: 'C', price: { amount: '2', currency: 'CREDIT' } }), 400, 'validation_failed');
  });
});

describe('GET /v1/verifier-listings', () => {
  it('should filter by verifier_id', async () => {
    const res = await signed(buyer, 'GET', `/v1/verifier-listings?verifier_id=${encodeURIComponent(seller.agentId)}`);
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listVerifierListings').request).toEqual({ page: { limit: 0, cursor: '' }, verifierId: seller.agentId });
    expect(res.json().data.length).toBeGreaterThan(0);
    expect(res.json().data.every((l: { verifier_id: string }) => l.verifier_id === seller.agentId)).toBe(true);
  });
});

describe('POST /v1/contracts/{contract_id}/disputes', () => {
  it('should open a dispute (201) and carry 403 not_contract_party', async () => {
    const c = await newContract();
    const res = await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'missing work', evidence_refs: [SHA] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      dispute_id: expect.stringMatching(/^dsp_/),
      contract_id: c.contract_id,
      opened_by: buyer.agentId,
      reason: 'missing work',
      evidence_refs: [SHA],
      status: 'open',
      outcome: null,
      seller_share_bps: null,
      rationale: null,
      resolved_by: null,
      resolved_at: null,
      receipt_id: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect((await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}`)).json()).toMatchObject({ status: 'disputed', disputed_from: 'open' });
    h.market.failNext('openDispute', errors.permissionDenied('not_contract_party', 'only the buyer or the awarded seller'));
    expectProblem(await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'x' }), 403, 'not_contract_party');
  });
});

describe('GET /v1/contracts/{contract_id}/disputes', () => {
  it('should list with opened_by and status filters', async () => {
    const c = await newContract();
    await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'r' });
    const res = await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}/disputes?opened_by=${encodeURIComponent(buyer.agentId)}&status=open`);
    expect(res.json()).toEqual({ data: [expect.objectContaining({ reason: 'r', status: 'open' })], next_cursor: null });
    expect(h.market.lastCall('listDisputes').request).toEqual({
      contractId: c.contract_id,
      page: { limit: 0, cursor: '' },
      openedBy: buyer.agentId,
      status: M.DisputeStatus.DISPUTE_STATUS_OPEN,
    });
    expectProblem(await signed(buyer, 'GET', '/v1/contracts/ctr_missing/disputes'), 404, 'contract_not_found');
  });
});

describe('GET /v1/disputes/{dispute_id}', () => {
  it('should read a dispute and 404 dispute_not_found', async () => {
    const c = await newContract();
    const d = (await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'r' })).json();
    expect((await signed(seller, 'GET', `/v1/disputes/${d.dispute_id}`)).json()).toEqual(d);
    expectProblem(await signed(buyer, 'GET', '/v1/disputes/dsp_missing'), 404, 'dispute_not_found');
  });
});

describe('POST /v1/disputes/{dispute_id}/resolve', () => {
  it('should resolve as operator (200 Dispute) mapping outcome and share', async () => {
    const c = await newContract();
    const d = (await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'r' })).json();
    const res = await asOperator('POST', `/v1/disputes/${d.dispute_id}/resolve`, { outcome: 'split', seller_share_bps: 3000, rationale: 'partial' });
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('resolveDispute').request).toEqual({
      disputeId: d.dispute_id,
      outcome: M.DisputeOutcome.DISPUTE_OUTCOME_SPLIT,
      sellerShareBps: 3000,
      rationale: 'partial',
      idempotencyKey: '',
    });
    expect(res.json()).toMatchObject({
      status: 'resolved',
      outcome: 'split',
      seller_share_bps: 3000,
      rationale: 'partial',
      resolved_by: 'operator:default',
      resolved_at: expect.stringMatching(ISO),
      receipt_id: expect.stringMatching(/^rcpt_/),
    });
  });

  it('should be operator-only, and carry 400 invalid_seller_share and 409 insufficient_funds', async () => {
    expect((await signed(buyer, 'POST', '/v1/disputes/dsp_x/resolve', { outcome: 'buyer', rationale: 'r' })).statusCode).toBe(403);
    h.market.failNext('resolveDispute', errors.invalidArgument('invalid_seller_share', 'seller_share_bps is required for split'));
    expectProblem(await asOperator('POST', '/v1/disputes/dsp_x/resolve', { outcome: 'split', rationale: 'r' }), 400, 'invalid_seller_share');
    h.market.failNext('resolveDispute', errors.failedPrecondition('insufficient_funds', 'the seller cannot pay back'));
    expectProblem(await asOperator('POST', '/v1/disputes/dsp_x/resolve', { outcome: 'buyer', rationale: 'r' }), 409, 'insufficient_funds');
  });
});
