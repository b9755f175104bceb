import { status } from '@grpc/grpc-js';
import { marketV1 } from '@exchange/proto';
import { awardedContract, contractInput, grpcError, offerInput, openContract, startMarketHarness, type MarketHarness } from './market-harness';

const CS = marketV1.ContractStatus;
const ES = marketV1.EscrowStatus;
const HOUR = 3_600_000;

describe('market saga recovery and deadline sweeper (gRPC, real wallet-ledger)', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_workers' });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const steps = async (contractId: string) =>
    (await h.marketSql.query(`SELECT kind, status, attempts FROM saga_steps WHERE contract_id = $1 ORDER BY created_at`, [contractId])).rows;

  describe('recovery', () => {
    it('should keep an award pending while the wallet is down (503) and complete it on recovery', async () => {
      const { contract, offer, buyer } = await openContract(h);
      const other = await openContract(h);
      await h.stopWallet();
      try {
        const err = await grpcError(h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator()));
        expect(err).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'wallet_unavailable' });
        expect(await steps(contract.contractId)).toEqual([{ kind: 'award', status: 'pending', attempts: 1 }]);
        expect((await h.client.getContract({ contractId: contract.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_OPEN);
        // Drain rule: another award, a cancel or a dispute first runs the pending step; still unreachable → 503.
        expect(await grpcError(h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator()))).toMatchObject({
          code: 'wallet_unavailable',
        });
        expect(await grpcError(h.client.cancelContract({ contractId: contract.contractId, idempotencyKey: '' }, h.as(buyer)))).toMatchObject({
          code: 'wallet_unavailable',
        });
        // A second award step never exists next to a pending one.
        expect(await steps(contract.contractId)).toEqual([{ kind: 'award', status: 'pending', attempts: 3 }]);
        // Withdrawing the offer being awarded waits for the award.
        expect(await grpcError(h.client.withdrawOffer({ offerId: offer.offerId, idempotencyKey: '' }, h.operator()))).toMatchObject({ code: 'invalid_state' });
        // Contracts without pending steps are not blocked.
        expect((await h.client.cancelContract({ contractId: other.contract.contractId, idempotencyKey: '' }, h.as(other.buyer))).contract!.status).toBe(
          CS.CONTRACT_STATUS_CANCELLED,
        );
        expect(await h.market.workers.recover()).toBe(0);
      } finally {
        await h.startWallet();
      }
      expect(await h.market.workers.recover()).toBe(1);
      const after = (await h.client.getContract({ contractId: contract.contractId })).contract!;
      expect(after).toMatchObject({ status: CS.CONTRACT_STATUS_AWARDED, escrowStatus: ES.ESCROW_STATUS_HELD, awardedOfferId: offer.offerId });
      expect(await steps(contract.contractId)).toEqual([{ kind: 'award', status: 'done', attempts: 5 }]);
      expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '100' });
      const { rows } = await h.walletSql.query(`SELECT count(*)::int AS n FROM holds WHERE reference = $1`, [contract.contractId]);
      expect(rows[0].n).toBe(1);
    });

    it('should answer a passing report while the wallet is down and settle at the next start-up recovery', async () => {
      const { contract, buyer, seller } = await awardedContract(h);
      const { result } = await h.client.submitResult(
        { contractId: contract.contractId, sellerId: '', summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' },
        h.as(seller),
      );
      const checks = [{ name: 'ok', ok: true }];
      const signature = h.signReport(buyer, { verifierId: buyer.agentId, resultId: result!.resultId, verdict: 'pass', score: 1, checks });
      await h.stopWallet();
      try {
        const res = await h.client.submitVerification(
          { contractId: contract.contractId, verifierId: '', resultId: result!.resultId, verdict: marketV1.Verdict.VERDICT_PASS, score: 1, checks, signature, idempotencyKey: '' },
          h.as(buyer),
        );
        expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_ACCEPTED, escrowStatus: ES.ESCROW_STATUS_HELD });
        expect(await steps(contract.contractId)).toEqual([
          { kind: 'award', status: 'done', attempts: 1 },
          { kind: 'settle', status: 'pending', attempts: 1 },
        ]);
        // Opening a dispute needs the pending settlement decided first.
        expect(
          await grpcError(h.client.openDispute({ contractId: contract.contractId, openedBy: '', reason: 'r', evidenceRefs: [], idempotencyKey: '' }, h.as(seller))),
        ).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'wallet_unavailable' });
      } finally {
        await h.startWallet();
      }
      await h.restartMarket(); // the start-up pass runs every pending step before SERVING
      const after = (await h.client.getContract({ contractId: contract.contractId })).contract!;
      expect(after).toMatchObject({ status: CS.CONTRACT_STATUS_SETTLED, escrowStatus: ES.ESCROW_STATUS_SETTLED });
      expect(await h.balances(seller.agentId)).toEqual({ available: '99', held: '0' });
      expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '0' });
      const types = (await h.outbox(contract.contractId)).map((e) => e.type);
      expect(types.filter((t) => t === 'exchange.market.contract.settled')).toHaveLength(1);
    });
  });

  describe('deadline sweeper', () => {
    it('should expire an open contract past its deadline and reject its offers', async () => {
      const buyer = h.newAgent('buyer');
      const { contract } = await h.client.createContract(contractInput({ deadline: new Date(h.clock.now().getTime() + HOUR) }), h.as(buyer));
      const { offer } = await h.client.submitOffer(offerInput(contract!.contractId, { eta: contract!.deadline }), h.as(h.newAgent('seller')));
      expect(await h.market.workers.sweep()).toBe(0);
      h.clock.advance(HOUR + 1000);
      expect(await h.market.workers.sweep()).toBeGreaterThanOrEqual(1);
      expect((await h.client.getContract({ contractId: contract!.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_EXPIRED);
      expect((await h.client.getOffer({ offerId: offer!.offerId })).offer!.status).toBe(marketV1.OfferStatus.OFFER_STATUS_REJECTED);
      expect((await h.outbox(contract!.contractId)).map((e) => e.type)).toEqual(['exchange.market.contract.created', 'exchange.market.contract.expired']);
    });

    it('should expire an awarded contract only after deadline + grace and release its escrow', async () => {
      const { contract, buyer } = await awardedContract(h, { contract: { deadline: new Date(h.clock.now().getTime() + HOUR) } });
      h.clock.advance(2 * HOUR);
      await h.market.workers.sweep();
      expect((await h.client.getContract({ contractId: contract.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_AWARDED);
      h.clock.advance(24 * HOUR);
      expect(await h.market.workers.sweep()).toBeGreaterThanOrEqual(1);
      const after = (await h.client.getContract({ contractId: contract.contractId })).contract!;
      expect(after).toMatchObject({ status: CS.CONTRACT_STATUS_EXPIRED, escrowStatus: ES.ESCROW_STATUS_RELEASED });
      expect(after.receiptId).toMatch(/^rcpt_/);
      expect(await h.balances(buyer.agentId)).toEqual({ available: '150', held: '0' });
      expect(await steps(contract.contractId)).toEqual([
        { kind: 'award', status: 'done', attempts: 1 },
        { kind: 'release', status: 'done', attempts: 1 },
      ]);
    });
  });
});
