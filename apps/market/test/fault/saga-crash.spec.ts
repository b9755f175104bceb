import { parseAmount } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { status } from '@grpc/grpc-js';
import { OPERATOR, asAgent, countRows, createContract, expectLedgerOk, outcomeOf, signReport, startMarketRig, submitOffer, type MarketRig, type RigAgent } from './support/market-rig';

// The market process kills itself (MARKET_FAULT_INJECTION, SIGKILL: no shutdown hook) right after
// wallet-ledger answered OK and before its own commit, at each saga step. It is restarted on the
// same database without the fault; its start-up recovery pass must finish the step exactly once:
// the wallet call replays with the step's idempotency key (one hold, one receipt), the contract
// reaches the state the step decided, balances are exact and the ledger reconciles.

const { ContractStatus, EscrowStatus, OfferStatus, ResultStatus, DisputeStatus, DisputeOutcome, Verdict } = marketV1;

// Each test spawns the market process twice (tsx start-up, migrations, recovery pass).
jest.setTimeout(120_000);

const C = (amount: string) => parseAmount(amount);

let rig: MarketRig;

beforeAll(async () => {
  rig = await startMarketRig('fault');
});

afterAll(async () => {
  await rig?.close();
});

/** Starts the market with `fault` armed (stopping a running one first). */
async function armed(fault: string) {
  await rig.startMarket({ MARKET_FAULT_INJECTION: fault });
}

/** The call the fault cut: it fails as UNAVAILABLE and the process is gone on its own. */
async function expectCrash(call: Promise<unknown>) {
  const res = await outcomeOf(call);
  expect(res.ok).toBe(false);
  if (!res.ok) expect(res.grpcCode).toBe(status.UNAVAILABLE);
  await rig.marketDied();
}

async function steps(contractId: string): Promise<Array<{ kind: string; status: string }>> {
  const { rows } = await rig.marketSql.query<{ kind: string; status: string }>('SELECT kind, status FROM saga_steps WHERE contract_id = $1 ORDER BY created_at', [contractId]);
  return rows;
}

/** The contract row as stored (read while the market is down). */
async function storedContract(contractId: string): Promise<{ status: string; escrow_status: string }> {
  const { rows } = await rig.marketSql.query(`SELECT status, escrow_status FROM contracts WHERE to_jsonb(contracts)->>'id' = $1 OR to_jsonb(contracts)->>'contract_id' = $1`, [contractId]);
  expect(rows).toHaveLength(1);
  return rows[0];
}

const holdsOf = (agentId: string) => countRows(rig.walletSql, 'SELECT count(*)::int AS n FROM holds WHERE agent_id = $1', [agentId]);
const receiptsOf = (contractId: string) => countRows(rig.walletSql, 'SELECT count(*)::int AS n FROM receipts WHERE contract_id = $1', [contractId]);

async function contract(contractId: string) {
  return (await rig.market.getContract({ contractId }, OPERATOR)).contract!;
}

async function awardedContract(buyer: RigAgent, seller: RigAgent, price: string) {
  const c = await createContract(rig.market, buyer);
  const offer = await submitOffer(rig.market, c.contractId, seller, price);
  await rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR);
  return { contractId: c.contractId, offer };
}

async function deliver(contractId: string, seller: RigAgent) {
  const res = await rig.market.submitResult({ contractId, sellerId: seller.agentId, summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' }, asAgent(seller.agentId));
  return res.result!;
}

describe('market killed mid-saga (SIGKILL) and restarted', () => {
  it('award:after_hold — the hold exists, the award was not recorded; on restart the award completes with that one hold', async () => {
    const buyer = rig.agent('award-buyer');
    const seller = rig.agent('award-seller');
    const rival = rig.agent('award-rival');
    await rig.fund(buyer.agentId, '150');
    await armed('award:after_hold');
    const c = await createContract(rig.market, buyer);
    const offer = await submitOffer(rig.market, c.contractId, seller, '80');
    const rivalOffer = await submitOffer(rig.market, c.contractId, rival, '70');

    await expectCrash(rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: 'award-once' }, OPERATOR));
    // Mid-saga: wallet-ledger holds the price, the market committed only the pending step.
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('70'), held: C('80') });
    expect(await holdsOf(buyer.agentId)).toBe(1);
    expect(await storedContract(c.contractId)).toEqual({ status: 'open', escrow_status: 'none' });
    expect(await steps(c.contractId)).toEqual([{ kind: 'award', status: 'pending' }]);

    await rig.startMarket();
    const awarded = await contract(c.contractId);
    expect(awarded).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_AWARDED, escrowStatus: EscrowStatus.ESCROW_STATUS_HELD, sellerId: seller.agentId, awardedOfferId: offer.offerId, price: { amount: '80', currency: 'CREDIT' } });
    const { rows: holds } = await rig.walletSql.query<{ hold_id: string }>('SELECT hold_id FROM holds WHERE agent_id = $1', [buyer.agentId]);
    expect(holds.map((h) => h.hold_id)).toEqual([awarded.holdId]);
    expect((await rig.market.getOffer({ offerId: offer.offerId }, OPERATOR)).offer!.status).toBe(OfferStatus.OFFER_STATUS_AWARDED);
    expect((await rig.market.getOffer({ offerId: rivalOffer.offerId }, OPERATOR)).offer!.status).toBe(OfferStatus.OFFER_STATUS_REJECTED);
    expect(await steps(c.contractId)).toEqual([{ kind: 'award', status: 'done' }]);

    // The operator retries the cut call. A new attempt is refused: the contract is awarded.
    const fresh = await outcomeOf(rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR));
    expect(fresh.ok ? 'ok' : fresh.code).toBe('invalid_state');
    // The same key again (the gateway waits 5 s for the market): a definite answer in time, never
    // a second hold. The crashed request's claim on the key was never completed; the contract
    // leaves open whether the retry replays, is refused, or is told the key is still in progress.
    const retry = await outcomeOf(rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: 'award-once' }, { ...OPERATOR, deadlineMs: 5_000 }));
    if (retry.ok) expect(retry.value.contract!.holdId).toBe(awarded.holdId);
    else expect(['invalid_state', 'idempotency_in_progress']).toContain(retry.code);
    expect(await holdsOf(buyer.agentId)).toBe(1);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('70'), held: C('80') });
    await expectLedgerOk(rig.wallet);
  });

  it('settle:after_consume — the wallet settled, the contract stayed accepted; on restart it is settled with that one receipt', async () => {
    const buyer = rig.agent('settle-buyer');
    const seller = rig.agent('settle-seller');
    await rig.fund(buyer.agentId, '150');
    const feesBefore = await rig.fees();
    await armed('settle:after_consume');
    const { contractId } = await awardedContract(buyer, seller, '80');
    const result = await deliver(contractId, seller);
    const report = { verifierId: buyer.agentId, resultId: result.resultId, verdict: 'pass' as const, score: 0.9, checks: [{ name: 'complete', ok: true }] };

    await expectCrash(
      rig.market.submitVerification(
        { contractId, verifierId: buyer.agentId, resultId: result.resultId, verdict: Verdict.VERDICT_PASS, score: 0.9, checks: report.checks, signature: signReport(rig, buyer, report), idempotencyKey: '' },
        asAgent(buyer.agentId),
      ),
    );
    // Mid-saga: the money moved (one receipt), the market is still at accepted with the step pending.
    expect(await receiptsOf(contractId)).toBe(1);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('70'), held: 0n });
    expect(await rig.balance(seller.agentId)).toEqual({ available: C('79.2'), held: 0n });
    expect(await storedContract(contractId)).toEqual({ status: 'accepted', escrow_status: 'held' });
    expect(await steps(contractId)).toEqual([
      { kind: 'award', status: 'done' },
      { kind: 'settle', status: 'pending' },
    ]);

    await rig.startMarket();
    const settled = await contract(contractId);
    expect(settled).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_SETTLED, escrowStatus: EscrowStatus.ESCROW_STATUS_SETTLED });
    const { rows: receipts } = await rig.walletSql.query<{ receipt_id: string; amount: string; fee: string }>('SELECT receipt_id, amount::text, fee::text FROM receipts WHERE contract_id = $1', [contractId]);
    expect(receipts).toEqual([{ receipt_id: settled.receiptId, amount: '80000000', fee: '800000' }]);
    expect(settled.settledAt).toBeInstanceOf(Date);
    expect((await rig.market.getResult({ resultId: result.resultId }, OPERATOR)).result!.status).toBe(ResultStatus.RESULT_STATUS_ACCEPTED);
    expect(await steps(contractId)).toEqual([
      { kind: 'award', status: 'done' },
      { kind: 'settle', status: 'done' },
    ]);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('70'), held: 0n });
    expect(await rig.balance(seller.agentId)).toEqual({ available: C('79.2'), held: 0n });
    expect((await rig.fees()) - feesBefore).toBe(C('0.8'));
    await expectLedgerOk(rig.wallet);
  });

  it('release:after_refund — a cancel of an awarded contract: on restart the escrow is released with that one refund receipt', async () => {
    const buyer = rig.agent('release-buyer');
    const seller = rig.agent('release-seller');
    await rig.fund(buyer.agentId, '100');
    await armed('release:after_refund');
    const { contractId } = await awardedContract(buyer, seller, '60');
    await expectCrash(rig.market.cancelContract({ contractId, reason: 'operator review', idempotencyKey: '' }, OPERATOR));
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('100'), held: 0n });
    expect(await receiptsOf(contractId)).toBe(1);

    await rig.startMarket();
    const cancelled = await contract(contractId);
    expect(cancelled).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_CANCELLED, escrowStatus: EscrowStatus.ESCROW_STATUS_RELEASED });
    const { rows } = await rig.walletSql.query<{ receipt_id: string; kind: string }>('SELECT receipt_id, kind::text FROM receipts WHERE contract_id = $1', [contractId]);
    expect(rows).toEqual([{ receipt_id: cancelled.receiptId, kind: 'refund' }]);
    expect((await steps(contractId)).map((s) => `${s.kind}:${s.status}`)).toEqual(['award:done', 'release:done']);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('100'), held: 0n });
    await expectLedgerOk(rig.wallet);
  });

  it('resolve:after_wallet — a split resolution: on restart the dispute is resolved and the contract split, money moved once', async () => {
    const buyer = rig.agent('resolve-buyer');
    const seller = rig.agent('resolve-seller');
    await rig.fund(buyer.agentId, '100');
    const feesBefore = await rig.fees();
    await armed('resolve:after_wallet');
    const { contractId } = await awardedContract(buyer, seller, '100');
    await deliver(contractId, seller);
    const opened = await rig.market.openDispute({ contractId, openedBy: buyer.agentId, reason: 'incomplete', evidenceRefs: [], idempotencyKey: '' }, asAgent(buyer.agentId));
    const disputeId = opened.dispute!.disputeId;
    await expectCrash(
      rig.market.resolveDispute({ disputeId, outcome: DisputeOutcome.DISPUTE_OUTCOME_SPLIT, sellerShareBps: 3000, rationale: 'partly done', idempotencyKey: '' }, OPERATOR),
    );
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('70'), held: 0n });
    expect(await rig.balance(seller.agentId)).toEqual({ available: C('29.7'), held: 0n });

    await rig.startMarket();
    const split = await contract(contractId);
    expect(split).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_SPLIT, escrowStatus: EscrowStatus.ESCROW_STATUS_SETTLED });
    const dispute = (await rig.market.getDispute({ disputeId }, OPERATOR)).dispute!;
    expect(dispute).toMatchObject({ status: DisputeStatus.DISPUTE_STATUS_RESOLVED, outcome: DisputeOutcome.DISPUTE_OUTCOME_SPLIT, sellerShareBps: 3000, receiptId: split.receiptId });
    expect(await receiptsOf(contractId)).toBe(1);
    expect((await steps(contractId)).map((s) => `${s.kind}:${s.status}`)).toEqual(['award:done', 'resolve:done']);
    // Resolved once: the operator retrying is refused and nothing moves again.
    const again = await outcomeOf(rig.market.resolveDispute({ disputeId, outcome: DisputeOutcome.DISPUTE_OUTCOME_SPLIT, sellerShareBps: 3000, rationale: 'partly done', idempotencyKey: '' }, OPERATOR));
    expect(again.ok ? 'ok' : again.code).toBe('invalid_state');
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C('70'), held: 0n });
    expect(await rig.balance(seller.agentId)).toEqual({ available: C('29.7'), held: 0n });
    expect((await rig.fees()) - feesBefore).toBe(C('0.3'));
    await expectLedgerOk(rig.wallet);
  });

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
