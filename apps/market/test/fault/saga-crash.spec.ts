import { marketV1 } from '@exchange/proto';
import { OPERATOR, asAgent, createContract, expectLedgerOk, outcomeOf, signReport, submitOffer } from './support/market-rig';
import { C, armed, awardedContract, contract, deliver, expectCrash, holdsOf, receiptsOf, rig, steps, storedContract, useCrashRig } from './support/crash-kit';

// The market process kills itself (MARKET_FAULT_INJECTION, SIGKILL: no shutdown hook) right after
// wallet-ledger answered OK and before its own commit, at each saga step. It is restarted on the
// same database without the fault; its start-up recovery pass must finish the step exactly once:
// the wallet call replays with the step's idempotency key (one hold, one receipt), the contract
// reaches the state the step decided, balances are exact and the ledger reconciles.

const { ContractStatus, EscrowStatus, OfferStatus, ResultStatus, DisputeStatus, DisputeOutcome, Verdict } = marketV1;

// Each test spawns the market process twice (tsx start-up, migrations, recovery pass).
jest.setTimeout(120_000);

useCrashRig('fault');

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
});
