import { parseAmount } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { OPERATOR, asAgent, countRows, createContract, expectLedgerOk, outcomeOf, signReport, startMarketRig, submitOffer, type MarketRig, type RigAgent } from '../fault/support/market-rig';

// Races on one contract through a real market process and a real wallet-ledger: concurrent awards
// of different offers (exactly one wins, one hold for the winner's price), and a dispute opened
// while the buyer's passing verdict is being processed (whichever order the contract row lock
// gives them, the final state and the balances agree with it).

const { ContractStatus, EscrowStatus, OfferStatus, DisputeOutcome, Verdict } = marketV1;
const C = (amount: string) => parseAmount(amount);
const LAGS_MS = [0, 3, 10, 25, 50, 100];

let rig: MarketRig;

beforeAll(async () => {
  rig = await startMarketRig('races', 'in-process');
});

afterAll(async () => {
  await rig?.close();
});

const holdsOf = (agentId: string) => countRows(rig.walletSql, 'SELECT count(*)::int AS n FROM holds WHERE agent_id = $1', [agentId]);
const receiptsOf = (contractId: string) => countRows(rig.walletSql, 'SELECT count(*)::int AS n FROM receipts WHERE contract_id = $1', [contractId]);

async function raceAwards(n: number) {
  const buyer = rig.agent(`race${n}-buyer`);
  await rig.fund(buyer.agentId, '200');
  const c = await createContract(rig.market, buyer);
  const sellers: RigAgent[] = Array.from({ length: n }, (_, i) => rig.agent(`race${n}-seller${i}`));
  // Distinct prices, all affordable: only the race decides.
  const offers = [];
  for (let i = 0; i < n; i++) offers.push(await submitOffer(rig.market, c.contractId, sellers[i], String(10 + i)));
  const outcomes = await Promise.all(offers.map((o) => outcomeOf(rig.market.awardOffer({ contractId: c.contractId, offerId: o.offerId, idempotencyKey: '' }, OPERATOR))));

  const winners = outcomes.flatMap((o, i) => (o.ok ? [i] : []));
  expect(winners).toHaveLength(1);
  const refusals = outcomes.flatMap((o) => (o.ok ? [] : [o.code]));
  expect(refusals).toEqual(Array(n - 1).fill('invalid_state'));
  const w = winners[0];
  const price = C(String(10 + w));

  const contract = (await rig.market.getContract({ contractId: c.contractId }, OPERATOR)).contract!;
  expect(contract).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_AWARDED, escrowStatus: EscrowStatus.ESCROW_STATUS_HELD, awardedOfferId: offers[w].offerId, sellerId: sellers[w].agentId });
  expect(await holdsOf(buyer.agentId)).toBe(1);
  expect(await rig.balance(buyer.agentId)).toEqual({ available: C('200') - price, held: price });
  for (let i = 0; i < n; i++) {
    const offer = (await rig.market.getOffer({ offerId: offers[i].offerId }, OPERATOR)).offer!;
    expect(offer.status).toBe(i === w ? OfferStatus.OFFER_STATUS_AWARDED : OfferStatus.OFFER_STATUS_REJECTED);
  }
  const steps = await rig.marketSql.query<{ status: string }>("SELECT status FROM saga_steps WHERE contract_id = $1 AND kind = 'award'", [c.contractId]);
  expect(steps.rows.filter((s) => s.status === 'done')).toHaveLength(1);
  expect(steps.rows.filter((s) => s.status === 'pending')).toHaveLength(0);
}

describe('concurrent awards of one contract', () => {
  it('two awards of different offers at once: exactly one wins, the other 409, one hold of the winner’s price', async () => {
    for (let round = 0; round < 3; round++) await raceAwards(2);
    await expectLedgerOk(rig.wallet);
  });

  it('ten awards at once: exactly one wins, nine 409, one hold', async () => {
    await raceAwards(10);
    await expectLedgerOk(rig.wallet);
  });
});

describe('dispute opened while a passing verdict settles', () => {
  it('ends consistent in whichever order the two land (several rounds), and the buyer outcome refunds exactly', async () => {
    const orders: string[] = [];
    for (let round = 0; round < 2 * LAGS_MS.length; round++) {
      const buyer = rig.agent(`dv${round}-buyer`);
      const seller = rig.agent(`dv${round}-seller`);
      await rig.fund(buyer.agentId, '100');
      const c = await createContract(rig.market, buyer);
      const offer = await submitOffer(rig.market, c.contractId, seller, '100');
      await rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR);
      const result = (
        await rig.market.submitResult({ contractId: c.contractId, sellerId: seller.agentId, summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' }, asAgent(seller.agentId))
      ).result!;
      const checks = [{ name: 'complete', ok: true }];
      const signature = signReport(rig, buyer, { verifierId: buyer.agentId, resultId: result.resultId, verdict: 'pass', score: 1, checks });
      const verify = () =>
        outcomeOf(
          rig.market.submitVerification({ contractId: c.contractId, verifierId: buyer.agentId, resultId: result.resultId, verdict: Verdict.VERDICT_PASS, score: 1, checks, signature, idempotencyKey: '' }, asAgent(buyer.agentId)),
        );
      const dispute = () => outcomeOf(rig.market.openDispute({ contractId: c.contractId, openedBy: seller.agentId, reason: 'race', evidenceRefs: [], idempotencyKey: '' }, asAgent(seller.agentId)));
      // Alternate which call leaves first so both orders occur.
      let pv: ReturnType<typeof verify>;
      let pd: ReturnType<typeof dispute>;
      if (round % 2 === 0) {
        // The verdict leaves first, the dispute after a growing lag: the lag moves the dispute
        // across the verdict's commit and its settle step.
        pv = verify();
        pd = new Promise((r) => setTimeout(r, LAGS_MS[round / 2])).then(dispute);
      } else {
        pd = dispute();
        pv = verify();
      }
      const [v, d] = await Promise.all([pv, pd]);

      // The dispute always opens (delivered, accepted and settled may all be disputed).
      expect(d.ok ? 'ok' : d.code).toBe('ok');
      const contract = (await rig.market.getContract({ contractId: c.contractId }, OPERATOR)).contract!;
      expect(contract.status).toBe(ContractStatus.CONTRACT_STATUS_DISPUTED);
      const settleSteps = async () =>
        (await rig.marketSql.query<{ status: string }>("SELECT status FROM saga_steps WHERE contract_id = $1 AND kind = 'settle'", [c.contractId])).rows.map((r) => r.status);
      let settledBeforeDispute: boolean;
      if (v.ok && contract.disputedFrom === ContractStatus.CONTRACT_STATUS_SETTLED) {
        // Verdict and settlement first; OpenDispute drained the settle step before disputing.
        orders.push('verify,settle,dispute');
        settledBeforeDispute = true;
        expect(contract.escrowStatus).toBe(EscrowStatus.ESCROW_STATUS_SETTLED);
        expect(await settleSteps()).toEqual(['done']);
        expect(await receiptsOf(c.contractId)).toBe(1);
        expect(await rig.balance(buyer.agentId)).toEqual({ available: 0n, held: 0n });
        expect(await rig.balance(seller.agentId)).toEqual({ available: C('99'), held: 0n });
      } else if (v.ok) {
        // Verdict committed (accepted, settle step pending) and the dispute disputed the accepted
        // contract, superseding the fresh settle step: that step never got a definite refusal from
        // the wallet (it may already have moved the escrow), so OpenDispute must drain it instead.
        orders.push('verify,dispute (superseded a fresh settle step)');
        throw new Error(`round ${round}: the dispute superseded a settle step it had not seen refused (disputed from ${contract.disputedFrom}, settle steps ${(await settleSteps()).join(',')})`);
      } else {
        // Dispute first: the contract was no longer delivered.
        orders.push('dispute,verify refused');
        settledBeforeDispute = false;
        expect(v.code).toBe('invalid_state');
        expect(contract).toMatchObject({ disputedFrom: ContractStatus.CONTRACT_STATUS_DELIVERED, escrowStatus: EscrowStatus.ESCROW_STATUS_HELD });
        expect(await settleSteps()).toEqual([]);
        expect(await receiptsOf(c.contractId)).toBe(0);
        expect(await rig.balance(buyer.agentId)).toEqual({ available: 0n, held: C('100') });
      }
      await rig.market.resolveDispute({ disputeId: d.ok ? d.value.dispute!.disputeId : '', outcome: DisputeOutcome.DISPUTE_OUTCOME_BUYER, sellerShareBps: undefined, rationale: 'race test', idempotencyKey: '' }, OPERATOR);
      const after = (await rig.market.getContract({ contractId: c.contractId }, OPERATOR)).contract!;
      expect(after.status).toBe(ContractStatus.CONTRACT_STATUS_REFUNDED);
      // Held escrow: released whole. Settled: the seller pays back P − F(P) = 99.
      expect(await rig.balance(buyer.agentId)).toEqual({ available: settledBeforeDispute ? C('99') : C('100'), held: 0n });
      expect(await rig.balance(seller.agentId)).toEqual({ available: 0n, held: 0n });
      // Nothing left for the recovery worker to do later (a paused settle must not come back).
      expect(await rig.harness.market.workers.recover()).toBe(0);
      expect(await rig.balance(buyer.agentId)).toEqual({ available: settledBeforeDispute ? C('99') : C('100'), held: 0n });
    }
    await expectLedgerOk(rig.wallet);
    // Which orders occurred is reported, not asserted (timing decides).
    console.log(`dispute vs verify orders: ${orders.join(', ')}`);
  });
});
