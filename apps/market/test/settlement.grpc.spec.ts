import { status } from '@grpc/grpc-js';
import { marketV1 } from '@exchange/proto';
import { awardedContract, grpcError, openContract, startMarketHarness, type MarketHarness } from './market-harness';

const CS = marketV1.ContractStatus;
const ES = marketV1.EscrowStatus;

describe('market settlement saga (real wallet-ledger)', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_settlement' });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('should hold the price at award, settle on a passing buyer report and pay the seller less the fee', async () => {
    const { buyer, seller, contract, offer } = await openContract(h, { fund: '150' });
    const feesBefore = await h.feesBalance();

    const awarded = await h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator());
    expect(awarded.contract).toMatchObject({ status: CS.CONTRACT_STATUS_AWARDED, escrowStatus: ES.ESCROW_STATUS_HELD, sellerId: seller.agentId });
    expect(awarded.contract!.holdId).toMatch(/^hld_/);
    expect(awarded.offer!.status).toBe(marketV1.OfferStatus.OFFER_STATUS_AWARDED);
    expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '100' });

    const { result, contract: delivered } = await h.client.submitResult(
      { contractId: contract.contractId, sellerId: '', summary: 'done', artifactRefs: [], payloadJson: '{"ok":true}', idempotencyKey: '' },
      h.as(seller),
    );
    expect(delivered!.status).toBe(CS.CONTRACT_STATUS_DELIVERED);

    const checks = [{ name: 'mentions result', ok: true }];
    const signature = h.signReport(buyer, { verifierId: buyer.agentId, resultId: result!.resultId, verdict: 'pass', score: 0.9, checks });
    const verified = await h.client.submitVerification(
      {
        contractId: contract.contractId,
        verifierId: '',
        resultId: result!.resultId,
        verdict: marketV1.Verdict.VERDICT_PASS,
        score: 0.9,
        checks,
        signature,
        idempotencyKey: '',
      },
      h.as(buyer),
    );
    expect(verified.contract).toMatchObject({ status: CS.CONTRACT_STATUS_SETTLED, escrowStatus: ES.ESCROW_STATUS_SETTLED });
    expect(verified.contract!.receiptId).toMatch(/^rcpt_/);
    expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '0' });
    expect(await h.balances(seller.agentId)).toEqual({ available: '99', held: '0' });
    expect(Number(await h.feesBalance()) - Number(feesBefore)).toBe(1);

    const types = (await h.outbox(contract.contractId)).map((e) => e.type);
    expect(types).toEqual([
      'exchange.market.contract.created',
      'exchange.market.contract.awarded',
      'exchange.market.contract.delivered',
      'exchange.market.contract.accepted',
      'exchange.market.contract.settled',
    ]);
  });

  it('should make the escrow a market-controlled hold: the wallet routes cannot move it, its cancellation (Refund) can', async () => {
    const { buyer, seller, contract } = await awardedContract(h);
    const holdId = contract.holdId!;
    expect((await h.wallet.getHold({ agentId: buyer.agentId, holdId })).hold).toMatchObject({ controller: 'market', reference: contract.contractId });
    for (const call of [
      h.wallet.releaseHold({ agentId: buyer.agentId, holdId, idempotencyKey: 'steal-release' }),
      h.wallet.consumeHold({ agentId: buyer.agentId, holdId, toAgentId: seller.agentId, idempotencyKey: 'steal-consume' }),
    ]) {
      expect(await grpcError(call)).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'hold_controlled_by_market' });
    }
    expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '100' });
    const cancelled = await h.client.cancelContract({ contractId: contract.contractId, reason: 'escrow check', idempotencyKey: '' }, h.operator());
    expect(cancelled.contract).toMatchObject({ status: CS.CONTRACT_STATUS_CANCELLED, escrowStatus: ES.ESCROW_STATUS_RELEASED });
    expect(await h.balances(buyer.agentId)).toEqual({ available: '150', held: '0' });
  });

  it('should refuse an award the buyer cannot pay with 409 insufficient_funds and change nothing', async () => {
    const { buyer, contract, offer } = await openContract(h, { fund: '50' });
    const err = await grpcError(h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator()));
    expect(err).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'insufficient_funds' });
    const after = await h.client.getContract({ contractId: contract.contractId });
    expect(after.contract).toMatchObject({ status: CS.CONTRACT_STATUS_OPEN, escrowStatus: ES.ESCROW_STATUS_NONE });
    expect((await h.client.getOffer({ offerId: offer.offerId })).offer!.status).toBe(marketV1.OfferStatus.OFFER_STATUS_SUBMITTED);
    expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '0' });

    // A new attempt after a top-up is a new step: it does not replay the refusal.
    await h.fund(buyer.agentId, '60');
    const awarded = await h.client.awardOffer({ contractId: contract.contractId, offerId: offer.offerId, idempotencyKey: '' }, h.operator());
    expect(awarded.contract!.status).toBe(CS.CONTRACT_STATUS_AWARDED);
    expect(await h.balances(buyer.agentId)).toEqual({ available: '10', held: '100' });
  });

  it('should release the escrow when the awarded seller cancels', async () => {
    const { buyer, seller, contract } = await awardedContract(h);
    const res = await h.client.cancelContract({ contractId: contract.contractId, reason: 'cannot do it', idempotencyKey: '' }, h.as(seller));
    expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_CANCELLED, escrowStatus: ES.ESCROW_STATUS_RELEASED, cancelReason: 'cannot do it' });
    expect(res.contract!.receiptId).toMatch(/^rcpt_/);
    expect(await h.balances(buyer.agentId)).toEqual({ available: '150', held: '0' });
  });
});
