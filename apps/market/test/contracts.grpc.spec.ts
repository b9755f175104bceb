import { status } from '@grpc/grpc-js';
import { marketV1 } from '@exchange/proto';
import { awardedContract, contractInput, grpcError, openContract, startMarketHarness, type MarketHarness } from './market-harness';

const CS = marketV1.ContractStatus;
const VM = marketV1.VerificationMode;

describe('market contracts (gRPC)', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_contracts' });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  describe('CreateContract', () => {
    it('should create an open contract with defaults, deduplicated tags and the buyer from the acting agent', async () => {
      const buyer = h.newAgent('buyer');
      const { contract, idempotentReplayed } = await h.client.createContract(
        contractInput({ description: '', tags: ['a', 'b', 'a'], verificationMode: VM.VERIFICATION_MODE_UNSPECIFIED, budget: { amount: '12.5', currency: 'CREDIT' } }),
        h.as(buyer),
      );
      expect(idempotentReplayed).toBe(false);
      expect(contract).toMatchObject({
        buyerId: buyer.agentId,
        description: '',
        tags: ['a', 'b'],
        budget: { amount: '12.5', currency: 'CREDIT' },
        verificationMode: VM.VERIFICATION_MODE_BUYER,
        status: CS.CONTRACT_STATUS_OPEN,
        escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_NONE,
      });
      expect(contract!.contractId).toMatch(/^ctr_/);
      expect(contract!.sellerId).toBeUndefined();
      const events = await h.outbox(contract!.contractId);
      expect(events).toHaveLength(1);
      expect(events[0].type).toBe('exchange.market.contract.created');
      expect(events[0].data.contract).toMatchObject({ contractId: contract!.contractId, status: 'CONTRACT_STATUS_OPEN' });
      expect((await h.client.getContract({ contractId: contract!.contractId })).contract).toEqual(contract);
    });

    it('should let an operator create for a named buyer and refuse an empty buyer without acting agent', async () => {
      const buyer = h.newAgent('buyer');
      const { contract } = await h.client.createContract(contractInput({ buyerId: buyer.agentId }), h.operator());
      expect(contract!.buyerId).toBe(buyer.agentId);
      expect(await grpcError(h.client.createContract(contractInput(), h.operator()))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'validation_failed',
        details: { field: 'buyer_id' },
      });
    });

    it('should refuse another acting agent (403), an unknown buyer (404) and a frozen one (403)', async () => {
      const buyer = h.newAgent('buyer');
      const other = h.newAgent('other');
      expect(await grpcError(h.client.createContract(contractInput({ buyerId: buyer.agentId }), h.as(other)))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'acting_agent_mismatch',
      });
      expect(await grpcError(h.client.createContract(contractInput({ buyerId: 'test:nobody' }), h.operator()))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'agent_not_found',
      });
      h.identity.freeze(other.agentId);
      expect(await grpcError(h.client.createContract(contractInput(), h.as(other)))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'agent_frozen' });
    });

    it('should validate every field', async () => {
      const buyer = h.newAgent('buyer');
      const cases: Array<[Partial<marketV1.CreateContractRequest>, string, string | undefined]> = [
        [{ title: '' }, 'validation_failed', 'title'],
        [{ title: 'x'.repeat(201) }, 'validation_failed', 'title'],
        [{ description: 'x'.repeat(20001) }, 'validation_failed', 'description'],
        [{ tags: ['Bad Tag'] }, 'validation_failed', 'tags'],
        [{ acceptanceCriteria: '' }, 'validation_failed', 'acceptance_criteria'],
        [{ budget: { amount: '0', currency: 'CREDIT' } }, 'invalid_amount', undefined],
        [{ budget: { amount: '1.1234567', currency: 'CREDIT' } }, 'invalid_amount', undefined],
        [{ deadline: new Date(Date.now() - 1000) }, 'invalid_deadline', undefined],
        [{ verificationMode: VM.VERIFICATION_MODE_VERIFIER }, 'verifier_required', undefined],
        [{ verifierId: 'someone' }, 'verifier_not_allowed', undefined],
        [{ verificationMode: VM.VERIFICATION_MODE_VERIFIER, verifierId: buyer.agentId }, 'verifier_is_buyer', undefined],
      ];
      for (const [overrides, code, field] of cases) {
        const err = await grpcError(h.client.createContract(contractInput(overrides), h.as(buyer)));
        expect([code, err.grpcCode, err.code, field === undefined ? undefined : err.details?.['field']]).toEqual([code, status.INVALID_ARGUMENT, code, field]);
      }
      expect(
        await grpcError(h.client.createContract(contractInput({ verificationMode: VM.VERIFICATION_MODE_VERIFIER, verifierId: 'test:not-a-verifier' }), h.as(buyer))),
      ).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'verifier_not_found' });
      expect(await grpcError(h.client.createContract(contractInput({ listingId: 'lst_missing' }), h.as(buyer)))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'listing_not_found',
      });
    });

    it('should link an existing listing', async () => {
      const seller = h.newAgent('seller');
      const buyer = h.newAgent('buyer');
      const { listing } = await h.client.createListing(
        { sellerId: '', title: 'Translation', description: 'en→fr', tags: ['translation'], price: { amount: '5', currency: 'CREDIT' }, turnaround: 'PT24H', idempotencyKey: '' },
        h.as(seller),
      );
      const { contract } = await h.client.createContract(contractInput({ listingId: listing!.listingId }), h.as(buyer));
      expect(contract!.listingId).toBe(listing!.listingId);
    });
  });

  describe('GetContract / ListContracts', () => {
    it('should 404 an unknown contract', async () => {
      expect(await grpcError(h.client.getContract({ contractId: 'ctr_missing' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'contract_not_found' });
    });

    it('should filter by buyer, seller and status and page newest first', async () => {
      const { buyer, seller, contract: awarded } = await awardedContract(h);
      const c2 = (await h.client.createContract(contractInput({ title: 'second' }), h.as(buyer))).contract!;
      const c3 = (await h.client.createContract(contractInput({ title: 'third' }), h.as(buyer))).contract!;
      const byBuyer = await h.client.listContracts({ buyerId: buyer.agentId, page: { limit: 2, cursor: '' } });
      expect(byBuyer.contracts.map((c) => c.contractId)).toEqual([c3.contractId, c2.contractId]);
      expect(byBuyer.page!.nextCursor).not.toBe('');
      const rest = await h.client.listContracts({ buyerId: buyer.agentId, page: { limit: 2, cursor: byBuyer.page!.nextCursor } });
      expect(rest.contracts.map((c) => c.contractId)).toEqual([awarded.contractId]);
      expect(rest.page!.nextCursor).toBe('');
      const bySeller = await h.client.listContracts({ sellerId: seller.agentId, page: undefined });
      expect(bySeller.contracts.map((c) => c.contractId)).toEqual([awarded.contractId]);
      const awardedOnes = await h.client.listContracts({ buyerId: buyer.agentId, status: CS.CONTRACT_STATUS_AWARDED, page: undefined });
      expect(awardedOnes.contracts.map((c) => c.contractId)).toEqual([awarded.contractId]);
      expect(await grpcError(h.client.listContracts({ page: { limit: 500, cursor: '' } }))).toMatchObject({ code: 'invalid_limit' });
      expect(await grpcError(h.client.listContracts({ page: { limit: 10, cursor: 'garbage!' } }))).toMatchObject({ code: 'invalid_cursor' });
    });
  });

  describe('CancelContract', () => {
    it('should let the buyer cancel an open contract and reject its submitted offers', async () => {
      const { buyer, contract, offer } = await openContract(h);
      const res = await h.client.cancelContract({ contractId: contract.contractId, reason: 'changed my mind', idempotencyKey: '' }, h.as(buyer));
      expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_CANCELLED, cancelReason: 'changed my mind' });
      expect((await h.client.getOffer({ offerId: offer.offerId })).offer!.status).toBe(marketV1.OfferStatus.OFFER_STATUS_REJECTED);
      expect((await h.outbox(offer.offerId)).map((e) => e.type)).toEqual(['exchange.market.offer.submitted', 'exchange.market.offer.rejected']);
      expect(await grpcError(h.client.cancelContract({ contractId: contract.contractId, idempotencyKey: '' }, h.as(buyer)))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
        details: { current: 'cancelled', wanted: 'cancelled' },
      });
    });

    it('should refuse the seller on an open contract and the buyer on an awarded one (403 not_allowed_to_cancel)', async () => {
      const open = await openContract(h);
      expect(await grpcError(h.client.cancelContract({ contractId: open.contract.contractId, idempotencyKey: '' }, h.as(open.seller)))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'not_allowed_to_cancel',
      });
      const awarded = await awardedContract(h);
      expect(await grpcError(h.client.cancelContract({ contractId: awarded.contract.contractId, idempotencyKey: '' }, h.as(awarded.buyer)))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'not_allowed_to_cancel',
      });
    });

    it('should let an operator cancel an awarded contract and release the escrow with a refund receipt', async () => {
      const { buyer, contract } = await awardedContract(h);
      expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '100' });
      const res = await h.client.cancelContract({ contractId: contract.contractId, idempotencyKey: '' }, h.operator());
      expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_CANCELLED, escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_RELEASED });
      const receipt = await h.wallet.getReceipt({ receiptId: res.contract!.receiptId!, contractId: '' });
      expect(receipt.receipt).toMatchObject({ contractId: contract.contractId, payer: buyer.agentId, amount: '100' });
      expect(await h.balances(buyer.agentId)).toEqual({ available: '150', held: '0' });
    });
  });

  describe('idempotency', () => {
    it('should replay the same request, refuse another payload with the same key, and scope keys by caller', async () => {
      const buyer = h.newAgent('buyer');
      const req = contractInput({ idempotencyKey: 'create-1' });
      const first = await h.client.createContract(req, h.as(buyer));
      const again = await h.client.createContract(req, h.as(buyer));
      expect(again.idempotentReplayed).toBe(true);
      expect(again.contract).toEqual(first.contract);
      expect((await h.client.listContracts({ buyerId: buyer.agentId, page: undefined })).contracts).toHaveLength(1);
      expect(await grpcError(h.client.createContract({ ...req, title: 'other' }, h.as(buyer)))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'idempotency_key_reused',
      });
      const other = h.newAgent('buyer');
      const theirs = await h.client.createContract(req, h.as(other));
      expect(theirs.idempotentReplayed).toBe(false);
      expect(theirs.contract!.buyerId).toBe(other.agentId);
    });

    it('should make concurrent duplicates wait for the first and replay it', async () => {
      const buyer = h.newAgent('buyer');
      const req = contractInput({ idempotencyKey: 'create-concurrent' });
      const results = await Promise.all([1, 2, 3].map(() => h.client.createContract(req, h.as(buyer))));
      expect(new Set(results.map((r) => r.contract!.contractId)).size).toBe(1);
      expect(results.filter((r) => !r.idempotentReplayed)).toHaveLength(1);
    });

    it('should answer 409 idempotency_in_progress when the first request holds its claim past the wait', async () => {
      const buyer = h.newAgent('buyer');
      // Stand-in for a first request still running: its uncommitted claim row.
      const first = await h.marketSql.connect();
      try {
        await first.query('BEGIN');
        await first.query(`INSERT INTO idempotency_records (scope, rpc, key, request_hash, response, created_at) VALUES ($1, 'CreateContract', 'slow', 'x', NULL, now())`, [
          `agent:${buyer.agentId}|${buyer.agentId}`,
        ]);
        const started = Date.now();
        expect(await grpcError(h.client.createContract(contractInput({ idempotencyKey: 'slow' }), h.as(buyer)))).toMatchObject({
          grpcCode: status.ABORTED,
          code: 'idempotency_in_progress',
        });
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        await first.query('ROLLBACK');
        first.release();
      }
      // The first one went away without an answer: the key is free again.
      expect((await h.client.createContract(contractInput({ idempotencyKey: 'slow' }), h.as(buyer))).idempotentReplayed).toBe(false);
    });

    it('should not store a refusal: the same key succeeds once the cause is gone', async () => {
      const { buyer, contract, offer } = await openContract(h, { fund: '10' });
      const award = { contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: 'award-1' };
      expect(await grpcError(h.client.awardOffer(award, h.operator()))).toMatchObject({ code: 'insufficient_funds' });
      await h.fund(buyer.agentId, '100');
      const res = await h.client.awardOffer(award, h.operator());
      expect(res.idempotentReplayed).toBe(false);
      expect((await h.client.awardOffer(award, h.operator())).idempotentReplayed).toBe(true);
      expect(await h.balances(buyer.agentId)).toEqual({ available: '10', held: '100' });
    });

    it('should refuse a malformed key', async () => {
      const buyer = h.newAgent('buyer');
      expect(await grpcError(h.client.createContract(contractInput({ idempotencyKey: 'x'.repeat(256) }), h.as(buyer)))).toMatchObject({
        code: 'invalid_idempotency_key',
      });
    });
  });
});
