import { status } from '@grpc/grpc-js';
import { marketV1 } from '@exchange/proto';
import { awardedContract, grpcError, startMarketHarness, type MarketHarness } from './market-harness';

const CS = marketV1.ContractStatus;
const ES = marketV1.EscrowStatus;
const DO = marketV1.DisputeOutcome;

describe('market disputes (gRPC, real wallet-ledger)', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_disputes' });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const fees = async () => Number(await h.feesBalance());

  async function delivered() {
    const a = await awardedContract(h); // buyer funded 150, price 100
    const { result } = await h.client.submitResult(
      { contractId: a.contract.contractId, sellerId: '', summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' },
      h.as(a.seller),
    );
    return { ...a, result: result! };
  }

  async function settled() {
    const d = await delivered();
    const checks = [{ name: 'ok', ok: true }];
    const signature = h.signReport(d.buyer, { verifierId: d.buyer.agentId, resultId: d.result.resultId, verdict: 'pass', score: 1, checks });
    const res = await h.client.submitVerification(
      { contractId: d.contract.contractId, verifierId: '', resultId: d.result.resultId, verdict: marketV1.Verdict.VERDICT_PASS, score: 1, checks, signature, idempotencyKey: '' },
      h.as(d.buyer),
    );
    expect(res.contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
    return d;
  }

  const open = (contractId: string, by: { agentId: string }) =>
    h.client.openDispute({ contractId, openedBy: '', reason: 'not what I asked', evidenceRefs: ['sha256:abc'], idempotencyKey: '' }, h.as(by.agentId));

  const resolve = (disputeId: string, outcome: marketV1.DisputeOutcome, sellerShareBps?: number) =>
    h.client.resolveDispute({ disputeId, outcome, sellerShareBps, rationale: 'looked at the evidence', idempotencyKey: '' }, h.operator('judge'));

  describe('with the escrow held', () => {
    it('seller outcome: settles the hold, seller +99, fees +1, buyer −100', async () => {
      const { contract, buyer, seller } = await delivered();
      const before = await fees();
      const opened = await open(contract.contractId, buyer);
      expect(opened.contract).toMatchObject({ status: CS.CONTRACT_STATUS_DISPUTED, disputedFrom: CS.CONTRACT_STATUS_DELIVERED });
      expect(opened.dispute).toMatchObject({ status: marketV1.DisputeStatus.DISPUTE_STATUS_OPEN, openedBy: buyer.agentId, evidenceRefs: ['sha256:abc'] });
      const res = await resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_SELLER);
      expect(res.dispute).toMatchObject({ status: marketV1.DisputeStatus.DISPUTE_STATUS_RESOLVED, outcome: DO.DISPUTE_OUTCOME_SELLER, resolvedBy: 'operator:judge' });
      expect(res.dispute!.receiptId).toMatch(/^rcpt_/);
      expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_SETTLED, escrowStatus: ES.ESCROW_STATUS_SETTLED, receiptId: res.dispute!.receiptId });
      expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '0' });
      expect(await h.balances(seller.agentId)).toEqual({ available: '99', held: '0' });
      expect((await fees()) - before).toBeCloseTo(1, 6);
      expect((await h.outbox(opened.dispute!.disputeId)).map((e) => e.type)).toEqual(['exchange.market.dispute.opened', 'exchange.market.dispute.resolved']);
    });

    it('buyer outcome: refunds the hold, buyer ±0', async () => {
      const { contract, buyer, seller } = await awardedContract(h);
      const opened = await open(contract.contractId, seller);
      expect(opened.contract!.disputedFrom).toBe(CS.CONTRACT_STATUS_AWARDED);
      const res = await resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_BUYER);
      expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_REFUNDED, escrowStatus: ES.ESCROW_STATUS_RELEASED });
      expect(await h.balances(buyer.agentId)).toEqual({ available: '150', held: '0' });
      expect(await h.balances(seller.agentId)).toEqual({ available: '0', held: '0' });
      expect((await h.outbox(contract.contractId)).map((e) => e.type).slice(-2)).toEqual(['exchange.market.contract.disputed', 'exchange.market.contract.refunded']);
    });

    it('split 3000 bps: seller +29.7, fees +0.3, buyer −30', async () => {
      const { contract, buyer, seller } = await delivered();
      const before = await fees();
      const opened = await open(contract.contractId, buyer);
      const res = await resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_SPLIT, 3000);
      expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_SPLIT, escrowStatus: ES.ESCROW_STATUS_SETTLED });
      expect(res.dispute!.sellerShareBps).toBe(3000);
      expect(await h.balances(buyer.agentId)).toEqual({ available: '120', held: '0' });
      expect(await h.balances(seller.agentId)).toEqual({ available: '29.7', held: '0' });
      expect((await fees()) - before).toBeCloseTo(0.3, 6);
    });
  });

  describe('after settlement', () => {
    it('seller outcome: no money moves', async () => {
      const { contract, buyer, seller } = await settled();
      const opened = await open(contract.contractId, buyer);
      expect(opened.contract!.disputedFrom).toBe(CS.CONTRACT_STATUS_SETTLED);
      const res = await resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_SELLER);
      expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_SETTLED, escrowStatus: ES.ESCROW_STATUS_SETTLED });
      expect(res.dispute!.receiptId).toBeUndefined();
      expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '0' });
      expect(await h.balances(seller.agentId)).toEqual({ available: '99', held: '0' });
    });

    it('buyer outcome: the seller pays back P − fee (the fee stays)', async () => {
      const { contract, buyer, seller } = await settled();
      const before = await fees();
      const opened = await open(contract.contractId, buyer);
      const res = await resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_BUYER);
      expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_REFUNDED, escrowStatus: ES.ESCROW_STATUS_SETTLED });
      expect(await h.balances(buyer.agentId)).toEqual({ available: '149', held: '0' });
      expect(await h.balances(seller.agentId)).toEqual({ available: '0', held: '0' });
      expect((await fees()) - before).toBeCloseTo(0, 6);
    });

    it('split 3000 bps: the seller pays back 99 − 29.7 = 69.3', async () => {
      const { contract, buyer, seller } = await settled();
      const opened = await open(contract.contractId, seller);
      const res = await resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_SPLIT, 3000);
      expect(res.contract!.status).toBe(CS.CONTRACT_STATUS_SPLIT);
      expect(await h.balances(buyer.agentId)).toEqual({ available: '119.3', held: '0' });
      expect(await h.balances(seller.agentId)).toEqual({ available: '29.7', held: '0' });
    });

    it('a seller short of funds: 409 insufficient_funds, the dispute stays open and nothing changes', async () => {
      const { contract, buyer, seller } = await settled();
      const sink = h.newAgent('sink');
      await h.wallet.transfer({ agentId: seller.agentId, toAgentId: sink.agentId, amount: '50', currency: 'CREDIT', idempotencyKey: `spend-${contract.contractId}` });
      const opened = await open(contract.contractId, buyer);
      const err = await grpcError(resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_BUYER));
      expect(err).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'insufficient_funds' });
      expect((await h.client.getDispute({ disputeId: opened.dispute!.disputeId })).dispute!.status).toBe(marketV1.DisputeStatus.DISPUTE_STATUS_OPEN);
      expect((await h.client.getContract({ contractId: contract.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_DISPUTED);
      expect(await h.balances(seller.agentId)).toEqual({ available: '49', held: '0' });
      // The seller side can still win it.
      const res = await resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_SELLER);
      expect(res.contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
    });
  });

  describe('rules', () => {
    it('should refuse non-parties, a second dispute, open contracts and non-operators', async () => {
      const { contract, buyer } = await delivered();
      const stranger = h.newAgent('stranger');
      expect(await grpcError(open(contract.contractId, stranger))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'not_contract_party' });
      const opened = await open(contract.contractId, buyer);
      expect(await grpcError(open(contract.contractId, buyer))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
        details: { current: 'disputed', wanted: 'disputed' },
      });
      expect(
        await grpcError(
          h.client.resolveDispute({ disputeId: opened.dispute!.disputeId, outcome: DO.DISPUTE_OUTCOME_BUYER, rationale: 'x', idempotencyKey: '' }, h.as(buyer)),
        ),
      ).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'operator_required' });
      expect(await grpcError(resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_SPLIT))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'invalid_seller_share' });
      expect(await grpcError(resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_BUYER, 10))).toMatchObject({ code: 'invalid_seller_share' });
      expect(await grpcError(resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_SPLIT, 10000))).toMatchObject({ code: 'invalid_seller_share' });
      expect(await grpcError(resolve('dsp_nope', DO.DISPUTE_OUTCOME_BUYER))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'dispute_not_found' });
      await resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_BUYER);
      expect(await grpcError(resolve(opened.dispute!.disputeId, DO.DISPUTE_OUTCOME_BUYER))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
        details: { current: 'resolved', wanted: 'resolved' },
      });

      const list = await h.client.listDisputes({ contractId: contract.contractId, openedBy: buyer.agentId, status: marketV1.DisputeStatus.DISPUTE_STATUS_RESOLVED, page: undefined });
      expect(list.disputes.map((d) => d.disputeId)).toEqual([opened.dispute!.disputeId]);
      expect((await h.client.listDisputes({ contractId: contract.contractId, status: marketV1.DisputeStatus.DISPUTE_STATUS_OPEN, page: undefined })).disputes).toEqual([]);
      expect(await grpcError(h.client.listDisputes({ contractId: 'ctr_nope', page: undefined }))).toMatchObject({ code: 'contract_not_found' });
    });

    it('should refuse a dispute on an open contract (409 invalid_state)', async () => {
      const buyer = h.newAgent('buyer');
      const { contract } = await h.client.createContract(
        marketV1.CreateContractRequest.fromPartial({
          title: 't',
          budget: { amount: '1', currency: 'CREDIT' },
          deadline: new Date(Date.now() + 3_600_000),
          acceptanceCriteria: 'a',
        }),
        h.as(buyer),
      );
      expect(await grpcError(open(contract!.contractId, buyer))).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'invalid_state', details: { current: 'open' } });
    });

    it('should pause a settlement the wallet refused (kill switch) when a dispute opens', async () => {
      const { contract, buyer, result } = await delivered();
      await h.wallet.setControls({ controls: { readOnly: false, killSwitches: ['settlements'] }, reason: 'test' });
      try {
        const checks = [{ name: 'ok', ok: true }];
        const signature = h.signReport(buyer, { verifierId: buyer.agentId, resultId: result.resultId, verdict: 'pass', score: 1, checks });
        const res = await h.client.submitVerification(
          { contractId: contract.contractId, verifierId: '', resultId: result.resultId, verdict: marketV1.Verdict.VERDICT_PASS, score: 1, checks, signature, idempotencyKey: '' },
          h.as(buyer),
        );
        expect(res.contract!.status).toBe(CS.CONTRACT_STATUS_ACCEPTED);
        const opened = await open(contract.contractId, buyer);
        expect(opened.contract).toMatchObject({ status: CS.CONTRACT_STATUS_DISPUTED, disputedFrom: CS.CONTRACT_STATUS_ACCEPTED, escrowStatus: ES.ESCROW_STATUS_HELD });
        const { rows } = await h.marketSql.query(`SELECT status FROM saga_steps WHERE contract_id = $1 AND kind = 'settle'`, [contract.contractId]);
        expect(rows).toEqual([{ status: 'superseded' }]);
      } finally {
        await h.wallet.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'test done' });
      }
      // Recovery leaves the superseded step alone; the hold is still there for the resolution.
      await h.market.workers.recover();
      expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '100' });
    });

    it('should close the window 7 days after settlement (409 dispute_window_closed)', async () => {
      const { contract, buyer } = await settled();
      h.clock.advance(7 * 86_400_000 + 60_000);
      expect(await grpcError(open(contract.contractId, buyer))).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'dispute_window_closed' });
    });
  });
});
