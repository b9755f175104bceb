import { status } from '@grpc/grpc-js';
import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { marketV1, marketV1Governance } from '@exchange/proto';
import { awardedContract, contractInput, grpcError, offerInput, startMarketHarness, type MarketHarness, type TestAgent } from './market-harness';

const ALIAS = /^anon:[a-z2-7]{12}$/;
const RS = marketV1.ResaleReviewStatus;
type GovernanceClient = PromiseClient<typeof marketV1Governance.ContractGovernanceServiceService>;

describe('market governance: resale lineage reviews and buyer alias updates (gRPC)', () => {
  let h: MarketHarness;
  let gov: GovernanceClient;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_governance' });
    gov = createServiceClient(marketV1Governance.ContractGovernanceServiceService, `127.0.0.1:${h.market.grpcPort}`);
  }, 120_000);
  afterAll(async () => {
    gov?.close();
    await h?.close();
  });

  const resell = (parentId: string, reseller: TestAgent, overrides: Partial<marketV1.CreateContractRequest> = {}) =>
    h.client.createContract(contractInput({ resaleOf: parentId, ...overrides }), h.as(reseller));
  const decide = (decisionRef: string, decision: string, reason = 'checked the lineage') =>
    gov.decideResaleReview({ decisionRef, decision, reason, idempotencyKey: '' }, h.operator());
  const audit = async (subject: string) =>
    (await h.marketSql.query('SELECT action, operator, reason, subject, details FROM integrity_audit WHERE subject = $1 ORDER BY created_at, id', [subject])).rows;

  /** A resale of `parentId` by `reseller`, approved and awarded to a fresh seller. */
  async function approvedAwardedResale(parentId: string, reseller: TestAgent) {
    await h.fund(reseller.agentId, '150');
    const { contract } = await resell(parentId, reseller);
    await decide(contract!.resaleReview!.decisionRef, 'approve');
    const seller = h.newAgent('subseller');
    const { offer } = await h.client.submitOffer(offerInput(contract!.contractId), h.as(seller));
    await h.client.awardOffer({ contractId: contract!.contractId, offerId: offer!.offerId, idempotencyKey: '' }, h.operator());
    return { contract: contract!, seller };
  }

  describe('resale lineage', () => {
    it('should create a resale by the awarded seller with a pending review, in the contract transaction with its events', async () => {
      const parent = await awardedContract(h);
      const { contract } = await resell(parent.contract.contractId, parent.seller);
      expect(contract).toMatchObject({ resaleOf: parent.contract.contractId, buyerId: parent.seller.agentId, status: marketV1.ContractStatus.CONTRACT_STATUS_OPEN });
      const review = contract!.resaleReview!;
      expect(review.decisionRef).toMatch(/^rld_[0-9a-f-]{36}$/);
      expect(review).toMatchObject({
        contractId: contract!.contractId,
        resaleOf: parent.contract.contractId,
        rootContractId: parent.contract.contractId,
        depth: 1,
        lineage: [parent.contract.contractId],
        status: RS.RESALE_REVIEW_STATUS_PENDING,
      });
      expect(review.decidedBy).toBeUndefined();
      const read = await h.client.getContract({ contractId: contract!.contractId }, h.operator());
      expect(read.contract!.resaleReview).toEqual(review);
      const listed = await h.client.listContracts({ sellerId: '', buyerId: parent.seller.agentId, page: { limit: 10, cursor: '' } }, h.operator());
      expect(listed.contracts.find((c) => c.contractId === contract!.contractId)!.resaleReview).toEqual(review);
      expect((await gov.getResaleReview({ decisionRef: review.decisionRef }, h.operator())).review).toEqual(review);

      expect((await h.outbox(review.decisionRef)).map((e) => e.type)).toEqual(['exchange.market.resale_review.created']);
      const created = (await h.outbox(contract!.contractId)).find((e) => e.type === 'exchange.market.contract.created')!;
      expect(created.data.contract.resaleReview.decisionRef).toBe(review.decisionRef);
      // An ordinary contract carries no review.
      expect(parent.contract.resaleReview).toBeUndefined();
    });

    it('should refuse a resale by anyone but the awarded seller, of an unknown parent, or of a parent no longer in progress', async () => {
      const parent = await awardedContract(h);
      const stranger = h.newAgent('stranger');
      const count = async () => (await h.marketSql.query('SELECT count(*)::int AS n FROM contracts WHERE resale_of = $1', [parent.contract.contractId])).rows[0].n;
      expect(await grpcError(resell(parent.contract.contractId, stranger))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'resale_not_party' });
      expect(await grpcError(resell(parent.contract.contractId, parent.buyer))).toMatchObject({ code: 'resale_not_party' });
      expect(await grpcError(resell('ctr_00000000-0000-7000-8000-000000000000', parent.seller))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'contract_not_found',
      });
      await h.client.cancelContract({ contractId: parent.contract.contractId, reason: 'stop', idempotencyKey: '' }, h.operator());
      expect(await grpcError(resell(parent.contract.contractId, parent.seller))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
      });
      expect(await count()).toBe(0);
    });

    it('should hold awards while the review is pending, refuse offers from upstream buyers, and award once approved', async () => {
      const parent = await awardedContract(h);
      await h.fund(parent.seller.agentId, '150');
      const { contract } = await resell(parent.contract.contractId, parent.seller);
      const id = contract!.contractId;
      expect(await grpcError(h.client.submitOffer(offerInput(id), h.as(parent.buyer)))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'resale_cycle',
      });
      const sub = h.newAgent('sub');
      const { offer } = await h.client.submitOffer(offerInput(id), h.as(sub));
      expect(await grpcError(h.client.awardOffer({ contractId: id, offerId: offer!.offerId, idempotencyKey: '' }, h.operator()))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'resale_review_pending',
      });
      expect(await h.balances(parent.seller.agentId)).toEqual({ available: '150', held: '0' });

      const decided = await decide(contract!.resaleReview!.decisionRef, 'approve', 'a genuine subcontract');
      expect(decided.review).toMatchObject({ status: RS.RESALE_REVIEW_STATUS_APPROVED, decidedBy: 'operator:ops', reason: 'a genuine subcontract' });
      expect(decided.review!.decidedAt).toBeInstanceOf(Date);
      expect(decided.contract).toMatchObject({ contractId: id, status: marketV1.ContractStatus.CONTRACT_STATUS_OPEN });
      const awarded = await h.client.awardOffer({ contractId: id, offerId: offer!.offerId, idempotencyKey: '' }, h.operator());
      expect(awarded.contract!.status).toBe(marketV1.ContractStatus.CONTRACT_STATUS_AWARDED);
      expect(awarded.contract!.resaleReview!.status).toBe(RS.RESALE_REVIEW_STATUS_APPROVED);

      expect(await grpcError(decide(contract!.resaleReview!.decisionRef, 'reject'))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
        details: { current: 'approved', wanted: 'rejected' },
      });
      expect(await audit(contract!.resaleReview!.decisionRef)).toEqual([
        {
          action: 'resale_review_decided',
          operator: 'operator:ops',
          reason: 'a genuine subcontract',
          subject: contract!.resaleReview!.decisionRef,
          details: { decision: 'approve', contract_id: id, resale_of: parent.contract.contractId, status: 'approved', contract_status: 'open' },
        },
      ]);
      expect((await h.outbox(contract!.resaleReview!.decisionRef)).map((e) => e.type)).toEqual([
        'exchange.market.resale_review.created',
        'exchange.market.resale_review.decided',
      ]);
    });

    it('should reject a lineage: review rejected, the contract cancelled with the reason, its offers rejected, one audit row', async () => {
      const parent = await awardedContract(h);
      const { contract } = await resell(parent.contract.contractId, parent.seller);
      const sub = h.newAgent('sub');
      const { offer } = await h.client.submitOffer(offerInput(contract!.contractId), h.as(sub));
      const ref = contract!.resaleReview!.decisionRef;
      const res = await decide(ref, 'reject', 'wash trading');
      expect(res.review).toMatchObject({ status: RS.RESALE_REVIEW_STATUS_REJECTED, reason: 'wash trading' });
      expect(res.contract).toMatchObject({
        status: marketV1.ContractStatus.CONTRACT_STATUS_CANCELLED,
        cancelReason: 'resale lineage rejected: wash trading',
        escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_NONE,
      });
      expect((await h.client.getOffer({ offerId: offer!.offerId })).offer!.status).toBe(marketV1.OfferStatus.OFFER_STATUS_REJECTED);
      const types = (await h.outbox(contract!.contractId)).map((e) => e.type);
      expect(types).toContain('exchange.market.contract.cancelled');
      expect((await audit(ref)).map((r) => r.action)).toEqual(['resale_review_decided']);
      expect(await grpcError(decide(ref, 'approve'))).toMatchObject({ code: 'invalid_state' });
    });

    it('should refuse a lineage deeper than MARKET_RESALE_MAX_DEPTH (3)', async () => {
      const root = await awardedContract(h);
      const r1 = await approvedAwardedResale(root.contract.contractId, root.seller);
      const r2 = await approvedAwardedResale(r1.contract.contractId, r1.seller);
      const r3 = await approvedAwardedResale(r2.contract.contractId, r2.seller);
      expect(r3.contract.resaleReview).toMatchObject({
        depth: 3,
        rootContractId: root.contract.contractId,
        lineage: [root.contract.contractId, r1.contract.contractId, r2.contract.contractId],
      });
      expect(await grpcError(resell(r3.contract.contractId, r3.seller))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'resale_depth_exceeded',
      });
      // Every buyer upstream in the lineage is refused as a seller of a resale at depth 3.
      const { contract: sibling } = await resell(r2.contract.contractId, r2.seller);
      for (const upstream of [root.buyer, root.seller, r1.seller]) {
        expect(await grpcError(h.client.submitOffer(offerInput(sibling!.contractId), h.as(upstream)))).toMatchObject({ code: 'resale_cycle' });
      }
    });

    it('should list and get reviews for the operator only, with status and contract filters', async () => {
      const parent = await awardedContract(h);
      const { contract } = await resell(parent.contract.contractId, parent.seller);
      const ref = contract!.resaleReview!.decisionRef;
      const pending = await gov.listResaleReviews({ status: RS.RESALE_REVIEW_STATUS_PENDING, page: { limit: 200, cursor: '' } }, h.operator());
      expect(pending.reviews.map((r) => r.decisionRef)).toContain(ref);
      expect(pending.reviews.every((r) => r.status === RS.RESALE_REVIEW_STATUS_PENDING)).toBe(true);
      const byContract = await gov.listResaleReviews({ contractId: contract!.contractId, page: undefined }, h.operator());
      expect(byContract.reviews.map((r) => r.decisionRef)).toEqual([ref]);
      const approved = await gov.listResaleReviews({ status: RS.RESALE_REVIEW_STATUS_APPROVED, contractId: contract!.contractId, page: undefined }, h.operator());
      expect(approved.reviews).toEqual([]);
      const page1 = await gov.listResaleReviews({ page: { limit: 1, cursor: '' } }, h.operator());
      expect(page1.reviews).toHaveLength(1);
      expect(page1.page!.nextCursor).not.toBe('');
      const page2 = await gov.listResaleReviews({ page: { limit: 1, cursor: page1.page!.nextCursor } }, h.operator());
      expect(page2.reviews[0]!.decisionRef).not.toBe(page1.reviews[0]!.decisionRef);

      expect(await grpcError(gov.listResaleReviews({ page: undefined }, h.as(parent.seller)))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'operator_required' });
      expect(await grpcError(gov.getResaleReview({ decisionRef: ref }, h.as(parent.seller)))).toMatchObject({ code: 'operator_required' });
      expect(await grpcError(gov.getResaleReview({ decisionRef: 'rld_00000000-0000-7000-8000-000000000000' }, h.operator()))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'resale_review_not_found',
      });
      expect(
        await grpcError(gov.decideResaleReview({ decisionRef: ref, decision: 'approve', reason: 'x', idempotencyKey: '' }, h.as(parent.seller))),
      ).toMatchObject({ code: 'operator_required' });
      expect(await grpcError(decide(ref, 'maybe'))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed', details: { field: 'decision' } });
      expect(await grpcError(decide(ref, 'approve', ''))).toMatchObject({ code: 'validation_failed', details: { field: 'reason' } });
      expect((await gov.getResaleReview({ decisionRef: ref }, h.operator())).review!.status).toBe(RS.RESALE_REVIEW_STATUS_PENDING);
    });
  });

  describe('buyer alias updates', () => {
    const createPrivate = async (buyer: TestAgent) => (await h.client.createContract(contractInput({ buyerPrivate: true }), h.as(buyer))).contract!;
    const update = (contractId: string, over: Partial<marketV1Governance.UpdateBuyerAliasRequest> = {}) =>
      gov.updateBuyerAlias({ contractId, reason: 'alias leaked', idempotencyKey: '', ...over }, h.operator());

    it('should mint a fresh alias of the next generation, keep the contract private, and write the event and audit row', async () => {
      const buyer = h.newAgent('abuyer');
      const stranger = h.newAgent('astranger');
      const created = await createPrivate(buyer);
      const res = await update(created.contractId);
      expect(res.previousAlias).toBe(created.buyerAlias);
      expect(res.contract).toMatchObject({ buyerPrivate: true, contractId: created.contractId });
      expect(res.contract!.buyerAlias).toMatch(ALIAS);
      expect(res.contract!.buyerAlias).not.toBe(created.buyerAlias);
      expect(h.identity.aliases.get(`${created.contractId}|buyer|1`)).toEqual({ alias: res.contract!.buyerAlias, agentId: buyer.agentId });
      const seen = (await h.client.getContract({ contractId: created.contractId }, h.as(stranger))).contract!;
      expect(seen).toMatchObject({ buyerId: '', buyerAlias: res.contract!.buyerAlias });
      const { rows } = await h.marketSql.query('SELECT buyer_alias_generation FROM contracts WHERE id = $1', [created.contractId]);
      expect(rows[0].buyer_alias_generation).toBe(1);

      const again = await update(created.contractId, { reason: 'rotate again' });
      expect(again.previousAlias).toBe(res.contract!.buyerAlias);
      expect(again.contract!.buyerAlias).not.toBe(res.contract!.buyerAlias);
      expect(h.identity.aliases.get(`${created.contractId}|buyer|2`)!.alias).toBe(again.contract!.buyerAlias);

      expect((await h.outbox(created.contractId)).filter((e) => e.type === 'exchange.market.contract.buyer_alias_updated')).toHaveLength(2);
      expect(await audit(created.contractId)).toEqual([
        {
          action: 'buyer_alias_updated',
          operator: 'operator:ops',
          reason: 'alias leaked',
          subject: created.contractId,
          details: { buyer_private: true, previous_alias: created.buyerAlias, buyer_alias: res.contract!.buyerAlias, generation: 1 },
        },
        {
          action: 'buyer_alias_updated',
          operator: 'operator:ops',
          reason: 'rotate again',
          subject: created.contractId,
          details: { buyer_private: true, previous_alias: res.contract!.buyerAlias, buyer_alias: again.contract!.buyerAlias, generation: 2 },
        },
      ]);
    });

    it('should make the buyer visible with buyer_private false, and private again with a new generation', async () => {
      const buyer = h.newAgent('vbuyer');
      const stranger = h.newAgent('vstranger');
      const created = await createPrivate(buyer);
      const res = await update(created.contractId, { buyerPrivate: false, reason: 'buyer asked to be public' });
      expect(res.contract).toMatchObject({ buyerPrivate: false, buyerId: buyer.agentId });
      expect(res.contract!.buyerAlias).toBeUndefined();
      expect((await h.client.getContract({ contractId: created.contractId }, h.as(stranger))).contract).toMatchObject({ buyerId: buyer.agentId, buyerPrivate: false });
      const back = await update(created.contractId, { buyerPrivate: true });
      expect(back.previousAlias).toBeUndefined();
      expect(back.contract!.buyerAlias).toMatch(ALIAS);
      expect(back.contract!.buyerAlias).not.toBe(created.buyerAlias);
    });

    it('should change nothing when identity cannot mint (503), and refuse non-operators, a missing reason and unknown contracts', async () => {
      const buyer = h.newAgent('fbuyer');
      const created = await createPrivate(buyer);
      const before = (await h.marketSql.query('SELECT buyer_alias, buyer_alias_generation, updated_at FROM contracts WHERE id = $1', [created.contractId])).rows[0];
      h.identity.failMints(1);
      expect(await grpcError(update(created.contractId))).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'identity_unavailable' });
      expect(await grpcError(gov.updateBuyerAlias({ contractId: created.contractId, reason: 'x', idempotencyKey: '' }, h.as(buyer)))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'operator_required',
      });
      expect(await grpcError(update(created.contractId, { reason: '' }))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed', details: { field: 'reason' } });
      expect(await grpcError(update('ctr_00000000-0000-7000-8000-000000000000'))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'contract_not_found' });
      const after = (await h.marketSql.query('SELECT buyer_alias, buyer_alias_generation, updated_at FROM contracts WHERE id = $1', [created.contractId])).rows[0];
      expect(after).toEqual(before);
      expect(await audit(created.contractId)).toEqual([]);
      expect((await h.outbox(created.contractId)).map((e) => e.type)).toEqual(['exchange.market.contract.created']);
      // The retry after identity came back succeeds.
      expect((await update(created.contractId)).contract!.buyerAlias).toMatch(ALIAS);
    });
  });
});
