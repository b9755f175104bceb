import { marketV1 } from '@exchange/proto';
import { OPERATOR, asAgent, countRows, createContract, expectLedgerOk, outcomeOf, signReport, submitOffer } from './support/market-rig';
import { C, armed, awardedContract, contract, deliver, expectCrash, receiptsOf, rig, steps, storedContract, useCrashRig } from './support/crash-kit';

// The saga-crash cases with more in flight or a slower recovery (several verdicts cut at once,
// wallet-ledger down at the restart, a post-settlement transfer, the deadline sweeper); the
// single-step cases and what they check: saga-crash.spec.ts.

const { ContractStatus, EscrowStatus, DisputeStatus, DisputeOutcome, Verdict } = marketV1;

// Each test spawns the market process twice (tsx start-up, migrations, recovery pass).
jest.setTimeout(120_000);

useCrashRig('fault_recovery');

describe('market killed mid-saga (SIGKILL) and restarted', () => {
  it('settle:after_consume with four verdicts in flight: after the restart every contract settles exactly once (retrying the cut calls)', async () => {
    const N = 4;
    const parties = Array.from({ length: N }, (_, i) => ({ buyer: rig.agent(`multi-buyer${i}`), seller: rig.agent(`multi-seller${i}`) }));
    for (const p of parties) await rig.fund(p.buyer.agentId, '50');
    const feesBefore = await rig.fees();
    await armed('settle:after_consume');
    const cases = [];
    for (const p of parties) {
      const { contractId } = await awardedContract(p.buyer, p.seller, '50');
      const result = await deliver(contractId, p.seller);
      const checks = [{ name: 'complete', ok: true }];
      const req = {
        contractId,
        verifierId: p.buyer.agentId,
        resultId: result.resultId,
        verdict: Verdict.VERDICT_PASS,
        score: 1,
        checks,
        signature: signReport(rig, p.buyer, { verifierId: p.buyer.agentId, resultId: result.resultId, verdict: 'pass', score: 1, checks }),
        idempotencyKey: '',
      };
      cases.push({ ...p, contractId, req });
    }
    const first = await Promise.all(cases.map((k) => outcomeOf(rig.market.submitVerification(k.req, asAgent(k.buyer.agentId)))));
    // The first settlement to come back from the wallet kills the process: every call is cut.
    expect(first.map((o) => (o.ok ? 'ok' : o.code))).toEqual(Array(N).fill('unavailable'));
    await rig.marketDied();

    await rig.startMarket();
    for (const [i, k] of cases.entries()) {
      const c = await contract(k.contractId);
      if (c.status === ContractStatus.CONTRACT_STATUS_DELIVERED) {
        // This verdict never committed: the buyer sends it again.
        const again = await outcomeOf(rig.market.submitVerification(k.req, asAgent(k.buyer.agentId)));
        expect({ i, code: again.ok ? 'ok' : again.code }).toEqual({ i, code: 'ok' });
      }
      const after = await contract(k.contractId);
      expect({ i, status: after.status, escrow: after.escrowStatus }).toEqual({ i, status: ContractStatus.CONTRACT_STATUS_SETTLED, escrow: EscrowStatus.ESCROW_STATUS_SETTLED });
      expect(await receiptsOf(k.contractId)).toBe(1);
      expect((await steps(k.contractId)).map((s) => `${s.kind}:${s.status}`)).toEqual(['award:done', 'settle:done']);
      expect(await rig.balance(k.buyer.agentId)).toEqual({ available: 0n, held: 0n });
      expect(await rig.balance(k.seller.agentId)).toEqual({ available: C('49.5'), held: 0n });
    }
    expect((await rig.fees()) - feesBefore).toBe(C('0.5') * BigInt(N));
    await expectLedgerOk(rig.wallet);
  });

  it('settle:after_consume, then restarted while wallet-ledger is down: the market still starts, and settles once the wallet is back', async () => {
    const buyer = rig.agent('down-buyer');
    const seller = rig.agent('down-seller');
    await rig.fund(buyer.agentId, '100');
    await armed('settle:after_consume');
    const { contractId } = await awardedContract(buyer, seller, '100');
    const result = await deliver(contractId, seller);
    const checks = [{ name: 'complete', ok: true }];
    await expectCrash(
      rig.market.submitVerification(
        {
          contractId,
          verifierId: buyer.agentId,
          resultId: result.resultId,
          verdict: Verdict.VERDICT_PASS,
          score: 1,
          checks,
          signature: signReport(rig, buyer, { verifierId: buyer.agentId, resultId: result.resultId, verdict: 'pass', score: 1, checks }),
          idempotencyKey: '',
        },
        asAgent(buyer.agentId),
      ),
    );
    await rig.harness.stopWallet();
    try {
      // The start-up recovery pass cannot reach the wallet: it must not keep the market from serving.
      await rig.startMarket({ MARKET_RECOVERY_INTERVAL_MS: '500' });
      const waiting = await contract(contractId);
      expect(waiting).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_ACCEPTED, escrowStatus: EscrowStatus.ESCROW_STATUS_HELD });
      // A drain that cannot reach the wallet answers 503 wallet_unavailable rather than guessing.
      const dispute = await outcomeOf(rig.market.openDispute({ contractId, openedBy: buyer.agentId, reason: 'x', evidenceRefs: [], idempotencyKey: '' }, asAgent(buyer.agentId)));
      expect(dispute.ok ? 'ok' : dispute.code).toBe('wallet_unavailable');
    } finally {
      await rig.harness.startWallet();
    }
    // The periodic recovery finishes the step with the same key: one receipt.
    const deadline = Date.now() + 60_000;
    let settled = await contract(contractId);
    while (settled.status !== ContractStatus.CONTRACT_STATUS_SETTLED && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      settled = await contract(contractId);
    }
    expect(settled).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_SETTLED, escrowStatus: EscrowStatus.ESCROW_STATUS_SETTLED });
    expect(await receiptsOf(contractId)).toBe(1);
    expect(await rig.balance(seller.agentId)).toEqual({ available: C('99'), held: 0n });
    expect(await rig.balance(buyer.agentId)).toEqual({ available: 0n, held: 0n });
    await expectLedgerOk(rig.wallet);
  });

  it('resolve:after_wallet after settlement (buyer outcome: a seller→buyer transfer) — on restart the dispute is resolved and the transfer made once', async () => {
    const buyer = rig.agent('post-buyer');
    const seller = rig.agent('post-seller');
    await rig.fund(buyer.agentId, '100');
    await armed('resolve:after_wallet');
    const { contractId } = await awardedContract(buyer, seller, '100');
    const result = await deliver(contractId, seller);
    const checks = [{ name: 'complete', ok: true }];
    await rig.market.submitVerification(
      {
        contractId,
        verifierId: buyer.agentId,
        resultId: result.resultId,
        verdict: Verdict.VERDICT_PASS,
        score: 1,
        checks,
        signature: signReport(rig, buyer, { verifierId: buyer.agentId, resultId: result.resultId, verdict: 'pass', score: 1, checks }),
        idempotencyKey: '',
      },
      asAgent(buyer.agentId),
    );
    expect(await rig.balance(seller.agentId)).toEqual({ available: C('99'), held: 0n });
    const disputeId = (await rig.market.openDispute({ contractId, openedBy: buyer.agentId, reason: 'wrong', evidenceRefs: [], idempotencyKey: '' }, asAgent(buyer.agentId))).dispute!.disputeId;
    await expectCrash(rig.market.resolveDispute({ disputeId, outcome: DisputeOutcome.DISPUTE_OUTCOME_BUYER, rationale: 'refund', idempotencyKey: '' }, OPERATOR));
    // The transfer happened; the market did not record it.
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('99'), held: 0n });
    expect(await rig.balance(seller.agentId)).toEqual({ available: 0n, held: 0n });

    await rig.startMarket();
    expect((await contract(contractId)).status).toBe(ContractStatus.CONTRACT_STATUS_REFUNDED);
    expect((await rig.market.getDispute({ disputeId }, OPERATOR)).dispute).toMatchObject({ status: DisputeStatus.DISPUTE_STATUS_RESOLVED, outcome: DisputeOutcome.DISPUTE_OUTCOME_BUYER });
    expect(await countRows(rig.walletSql, 'SELECT count(*)::int AS n FROM transfers WHERE from_agent_id = $1', [seller.agentId])).toBe(1);
    expect((await steps(contractId)).map((s) => `${s.kind}:${s.status}`)).toEqual(['award:done', 'settle:done', 'resolve:done']);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('99'), held: 0n });
    expect(await rig.balance(seller.agentId)).toEqual({ available: 0n, held: 0n });
    await expectLedgerOk(rig.wallet);
  });

  it('release:after_refund in the deadline sweeper (awarded contract past deadline + grace) — on restart it is expired with that one refund', async () => {
    const buyer = rig.agent('sweep-buyer');
    const seller = rig.agent('sweep-seller');
    await rig.fund(buyer.agentId, '100');
    await rig.startMarket({ MARKET_FAULT_INJECTION: 'release:after_refund', MARKET_SWEEP_INTERVAL_MS: '200', MARKET_AWARD_GRACE_MS: '0' });
    const c = await createContract(rig.market, buyer, { deadline: new Date(Date.now() + 3000) });
    const offer = await submitOffer(rig.market, c.contractId, seller, '70', c.deadline);
    await rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('30'), held: C('70') });
    // Nothing calls the market: its own sweeper expires the contract, refunds, and dies.
    await rig.marketDied(30_000);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('100'), held: 0n });
    expect(await storedContract(c.contractId)).toEqual({ status: 'expired', escrow_status: 'held' });

    await rig.startMarket();
    const expired = await contract(c.contractId);
    expect(expired).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_EXPIRED, escrowStatus: EscrowStatus.ESCROW_STATUS_RELEASED });
    const { rows } = await rig.walletSql.query<{ receipt_id: string; kind: string }>('SELECT receipt_id, kind::text FROM receipts WHERE contract_id = $1', [c.contractId]);
    expect(rows).toEqual([{ receipt_id: expired.receiptId, kind: 'refund' }]);
    expect((await steps(c.contractId)).map((s) => `${s.kind}:${s.status}`)).toEqual(['award:done', 'release:done']);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('100'), held: 0n });
    await expectLedgerOk(rig.wallet);
  });
});
