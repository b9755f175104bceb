import { errors } from '@exchange/platform';
import { expectProblem } from './harness';
import { asOperator, buyer, DEADLINE, freshKey, h, ISO, M, newContract, newOffer, seller, signed, useMarketHarness } from './market-setup';

// The Listings and Offers areas (award included) through app.inject(), as market-contracts.spec.ts.

useMarketHarness();

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
