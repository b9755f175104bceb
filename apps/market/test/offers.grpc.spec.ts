import { status } from '@grpc/grpc-js';
import { marketV1 } from '@exchange/proto';
import { contractInput, grpcError, offerInput, openContract, startMarketHarness, type MarketHarness } from './market-harness';

const OS = marketV1.OfferStatus;

describe('market listings and offers (gRPC)', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_offers' });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  describe('listings', () => {
    it('should create, get and list listings filtered by tag', async () => {
      const seller = h.newAgent('seller');
      const tag = `tag-${Date.now()}`;
      const base = { sellerId: '', description: '', price: { amount: '3', currency: 'CREDIT' }, turnaround: undefined, idempotencyKey: '' };
      const a = (await h.client.createListing({ ...base, title: 'A', tags: [tag, 'x'] }, h.as(seller))).listing!;
      await h.client.createListing({ ...base, title: 'B', tags: ['other'] }, h.as(seller));
      const c = (await h.client.createListing({ ...base, title: 'C', tags: [tag], turnaround: 'P2D' }, h.as(seller))).listing!;
      expect(a).toMatchObject({ sellerId: seller.agentId, tags: [tag, 'x'], price: { amount: '3', currency: 'CREDIT' } });
      expect(a.turnaround).toBeUndefined();
      expect(c.turnaround).toBe('P2D');
      expect((await h.client.getListing({ listingId: a.listingId })).listing).toEqual(a);
      const tagged = await h.client.listListings({ tag, page: { limit: 1, cursor: '' } });
      expect(tagged.listings.map((l) => l.listingId)).toEqual([c.listingId]);
      const next = await h.client.listListings({ tag, page: { limit: 1, cursor: tagged.page!.nextCursor } });
      expect(next.listings.map((l) => l.listingId)).toEqual([a.listingId]);
      expect((await h.outbox(a.listingId)).map((e) => e.type)).toEqual(['exchange.market.listing.created']);
    });

    it('should refuse a bad turnaround, a bad price and an unknown listing', async () => {
      const seller = h.newAgent('seller');
      const base = { sellerId: '', title: 'T', description: '', tags: [], price: { amount: '3', currency: 'CREDIT' }, idempotencyKey: '' };
      expect(await grpcError(h.client.createListing({ ...base, turnaround: '3 days' }, h.as(seller)))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'invalid_turnaround',
      });
      expect(await grpcError(h.client.createListing({ ...base, price: { amount: '-1', currency: 'CREDIT' } }, h.as(seller)))).toMatchObject({ code: 'invalid_amount' });
      expect(await grpcError(h.client.getListing({ listingId: 'lst_nope' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'listing_not_found' });
    });
  });

  describe('SubmitOffer', () => {
    it('should submit an offer and list offers by seller and status', async () => {
      const { contract, offer, seller } = await openContract(h);
      expect(offer).toMatchObject({ contractId: contract.contractId, sellerId: seller.agentId, status: OS.OFFER_STATUS_SUBMITTED, price: { amount: '100', currency: 'CREDIT' } });
      const seller2 = h.newAgent('seller');
      const second = (await h.client.submitOffer(offerInput(contract.contractId, { price: { amount: '80', currency: 'CREDIT' } }), h.as(seller2))).offer!;
      await h.client.withdrawOffer({ offerId: second.offerId, idempotencyKey: '' }, h.as(seller2));
      const all = await h.client.listOffers({ contractId: contract.contractId, page: undefined });
      expect(all.offers.map((o) => o.offerId)).toEqual([second.offerId, offer.offerId]);
      const bySeller = await h.client.listOffers({ contractId: contract.contractId, sellerId: seller.agentId, page: undefined });
      expect(bySeller.offers.map((o) => o.offerId)).toEqual([offer.offerId]);
      const withdrawn = await h.client.listOffers({ contractId: contract.contractId, status: OS.OFFER_STATUS_WITHDRAWN, page: undefined });
      expect(withdrawn.offers.map((o) => o.offerId)).toEqual([second.offerId]);
      expect(await grpcError(h.client.listOffers({ contractId: 'ctr_nope', page: undefined }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'contract_not_found' });
    });

    it('should refuse self-dealing, the verifier, other currencies, prices over budget, past etas and a second offer', async () => {
      const verifier = h.newAgent('verifier');
      await h.client.registerVerifier({ verifierId: '', name: 'V', description: '', tags: [], fee: undefined, idempotencyKey: '' }, h.as(verifier));
      const buyer = h.newAgent('buyer');
      const { contract } = await h.client.createContract(
        contractInput({ verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_VERIFIER, verifierId: verifier.agentId }),
        h.as(buyer),
      );
      const id = contract!.contractId;
      const seller = h.newAgent('seller');
      expect(await grpcError(h.client.submitOffer(offerInput(id), h.as(buyer)))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'self_dealing' });
      expect(await grpcError(h.client.submitOffer(offerInput(id), h.as(verifier)))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'conflict_of_interest' });
      expect(await grpcError(h.client.submitOffer(offerInput(id, { price: { amount: '10', currency: 'USD' } }), h.as(seller)))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'currency_mismatch',
      });
      expect(await grpcError(h.client.submitOffer(offerInput(id, { price: { amount: '100.000001', currency: 'CREDIT' } }), h.as(seller)))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'price_exceeds_budget',
      });
      expect(await grpcError(h.client.submitOffer(offerInput(id, { eta: new Date(Date.now() - 1) }), h.as(seller)))).toMatchObject({ code: 'invalid_eta' });
      await h.client.submitOffer(offerInput(id), h.as(seller));
      expect(await grpcError(h.client.submitOffer(offerInput(id), h.as(seller)))).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'offer_exists' });
      expect(await grpcError(h.client.submitOffer(offerInput('ctr_nope'), h.as(seller)))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'contract_not_found' });
    });

    it('should refuse offers on a contract that is not open (409 invalid_state)', async () => {
      const { contract, offer } = await openContract(h);
      await h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator());
      const late = h.newAgent('seller');
      expect(await grpcError(h.client.submitOffer(offerInput(contract.contractId), h.as(late)))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
        details: { current: 'awarded' },
      });
    });
  });

  describe('WithdrawOffer', () => {
    it('should let the seller or an operator withdraw a submitted offer only', async () => {
      const { contract, offer, seller } = await openContract(h);
      const stranger = h.newAgent('stranger');
      expect(await grpcError(h.client.withdrawOffer({ offerId: offer.offerId, idempotencyKey: '' }, h.as(stranger)))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'not_offer_seller',
      });
      const res = await h.client.withdrawOffer({ offerId: offer.offerId, idempotencyKey: '' }, h.as(seller));
      expect(res.offer!.status).toBe(OS.OFFER_STATUS_WITHDRAWN);
      expect(await grpcError(h.client.withdrawOffer({ offerId: offer.offerId, idempotencyKey: '' }, h.operator()))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
        details: { current: 'withdrawn', wanted: 'withdrawn' },
      });
      // A withdrawn offer frees the seller to offer again.
      const again = await h.client.submitOffer(offerInput(contract.contractId), h.as(seller));
      const byOperator = await h.client.withdrawOffer({ offerId: again.offer!.offerId, idempotencyKey: '' }, h.operator());
      expect(byOperator.offer!.status).toBe(OS.OFFER_STATUS_WITHDRAWN);
      expect(await grpcError(h.client.withdrawOffer({ offerId: 'ofr_nope', idempotencyKey: '' }, h.operator()))).toMatchObject({ code: 'offer_not_found' });
    });
  });

  describe('AwardOffer', () => {
    it('should award one offer, reject the others and emit the events', async () => {
      const { contract, offer, buyer } = await openContract(h, { price: '60' });
      const other = h.newAgent('seller');
      const otherOffer = (await h.client.submitOffer(offerInput(contract.contractId, { price: { amount: '70', currency: 'CREDIT' } }), h.as(other))).offer!;
      const res = await h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator());
      expect(res.contract).toMatchObject({ status: marketV1.ContractStatus.CONTRACT_STATUS_AWARDED, price: { amount: '60', currency: 'CREDIT' }, awardedOfferId: offer.offerId });
      expect(res.contract!.awardedAt).toBeInstanceOf(Date);
      expect((await h.client.getOffer({ offerId: otherOffer.offerId })).offer!.status).toBe(OS.OFFER_STATUS_REJECTED);
      expect(await h.balances(buyer.agentId)).toEqual({ available: '90', held: '60' });
      const hold = await h.wallet.getHold({ agentId: buyer.agentId, holdId: res.contract!.holdId! });
      expect(hold.hold).toMatchObject({ amount: '60', reference: contract.contractId });
      expect(hold.hold!.expiresAt).toBeUndefined();
      expect((await h.outbox(offer.offerId)).map((e) => e.type)).toEqual(['exchange.market.offer.submitted', 'exchange.market.offer.awarded']);
      expect((await h.outbox(otherOffer.offerId)).map((e) => e.type)).toEqual(['exchange.market.offer.submitted', 'exchange.market.offer.rejected']);
      const steps = await h.marketSql.query(`SELECT kind, status, wallet_key FROM saga_steps WHERE contract_id = $1`, [contract.contractId]);
      expect(steps.rows).toEqual([{ kind: 'award', status: 'done', wallet_key: expect.stringMatching(new RegExp(`^mkt:${contract.contractId}:award:[0-9a-f-]{36}$`)) }]);
    });

    it('should refuse agents (403 operator_required), foreign or unknown offers (404) and a second award (409)', async () => {
      const { contract, offer, buyer } = await openContract(h);
      expect(await grpcError(h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.as(buyer)))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'operator_required',
      });
      const elsewhere = await openContract(h);
      expect(
        await grpcError(h.client.awardOffer({ contractId: contract.contractId, offerId: elsewhere.offer.offerId, idempotencyKey: '' }, h.operator())),
      ).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'offer_not_found' });
      expect(await grpcError(h.client.awardOffer({ contractId: 'ctr_nope', offerId: offer.offerId, idempotencyKey: '' }, h.operator()))).toMatchObject({
        code: 'contract_not_found',
      });
      await h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator());
      expect(await grpcError(h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator()))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
        details: { current: 'awarded', wanted: 'awarded' },
      });
    });

    it('should let exactly one of concurrent awards of different offers win', async () => {
      const { contract, offer, buyer } = await openContract(h, { fund: '1000', price: '10' });
      const offers = [offer];
      for (let i = 0; i < 4; i++) {
        offers.push((await h.client.submitOffer(offerInput(contract.contractId, { price: { amount: String(20 + i), currency: 'CREDIT' } }), h.as(h.newAgent('seller')))).offer!);
      }
      const outcomes = await Promise.allSettled(
        offers.map((o) => h.client.awardOffer({ contractId: contract.contractId, offerId: o.offerId, idempotencyKey: '' }, h.operator())),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const winner = (won[0] as PromiseFulfilledResult<marketV1.AwardOfferResponse>).value;
      const balances = await h.balances(buyer.agentId);
      expect(balances.held).toBe(winner.contract!.price!.amount);
      const { rows } = await h.walletSql.query(`SELECT count(*)::int AS n FROM holds WHERE reference = $1`, [contract.contractId]);
      expect(rows[0].n).toBe(1);
    });
  });

  // Last: it moves the market's clock forward for the rest of this file.
  describe('after the deadline (before the sweeper runs)', () => {
    it('should refuse offers and awards (409 deadline_passed) and leave the contract for the sweeper to expire', async () => {
      const deadline = new Date(Date.now() + 30_000);
      const { contract, offer, buyer } = await openContract(h, { contract: { deadline } });
      h.clock.advance(60_000);
      const iso = contract.deadline!.toISOString();
      const late = h.newAgent('seller');
      expect(await grpcError(h.client.submitOffer(offerInput(contract.contractId, { eta: new Date(Date.now() + 86_400_000) }), h.as(late)))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'deadline_passed',
        message: expect.stringContaining(iso),
        details: { deadline: iso },
      });
      expect(await grpcError(h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator()))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'deadline_passed',
        message: expect.stringContaining(iso),
        details: { deadline: iso },
      });
      // Nothing moved: no award step, no hold, the contract still open and its offer still submitted.
      const steps = await h.marketSql.query(`SELECT kind FROM saga_steps WHERE contract_id = $1`, [contract.contractId]);
      expect(steps.rows).toEqual([]);
      expect(await h.balances(buyer.agentId)).toEqual({ available: '150', held: '0' });
      expect((await h.client.getContract({ contractId: contract.contractId })).contract!.status).toBe(marketV1.ContractStatus.CONTRACT_STATUS_OPEN);
      expect((await h.client.getOffer({ offerId: offer.offerId })).offer!.status).toBe(OS.OFFER_STATUS_SUBMITTED);
      expect((await h.client.listOffers({ contractId: contract.contractId, page: undefined })).offers.map((o) => o.offerId)).toEqual([offer.offerId]);

      // The sweeper expires it; then the refusal is the state's.
      expect(await h.market.workers.sweep()).toBeGreaterThanOrEqual(1);
      expect((await h.client.getContract({ contractId: contract.contractId })).contract!.status).toBe(marketV1.ContractStatus.CONTRACT_STATUS_EXPIRED);
      expect(await grpcError(h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator()))).toMatchObject({
        code: 'invalid_state',
        details: { current: 'expired' },
      });
    });

    it('should still accept an offer and an award just before the deadline', async () => {
      const deadline = new Date(h.clock.now().getTime() + 30_000);
      const { contract, offer } = await openContract(h, { contract: { deadline } });
      const res = await h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator());
      expect(res.contract!.status).toBe(marketV1.ContractStatus.CONTRACT_STATUS_AWARDED);
    });
  });
});
