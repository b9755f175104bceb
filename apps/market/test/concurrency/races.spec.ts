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

describe('more races on one contract', () => {
  async function delivered(label: string, price = '100') {
    const buyer = rig.agent(`${label}-buyer`);
    const seller = rig.agent(`${label}-seller`);
    await rig.fund(buyer.agentId, price);
    const c = await createContract(rig.market, buyer);
    const offer = await submitOffer(rig.market, c.contractId, seller, price);
    await rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR);
    const result = (
      await rig.market.submitResult({ contractId: c.contractId, sellerId: seller.agentId, summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' }, asAgent(seller.agentId))
    ).result!;
    return { buyer, seller, contractId: c.contractId, result };
  }

  it('the same passing verdict sent 5 times at once (no key): one report, one settlement', async () => {
    const { buyer, seller, contractId, result } = await delivered('dup-verify');
    const checks = [{ name: 'ok', ok: true }];
    const signature = signReport(rig, buyer, { verifierId: buyer.agentId, resultId: result.resultId, verdict: 'pass', score: 1, checks });
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        outcomeOf(
          rig.market.submitVerification({ contractId, verifierId: buyer.agentId, resultId: result.resultId, verdict: Verdict.VERDICT_PASS, score: 1, checks, signature, idempotencyKey: '' }, asAgent(buyer.agentId)),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.flatMap((o) => (o.ok ? [] : [o.code]))).toEqual(Array(4).fill('invalid_state'));
    expect(await countRows(rig.marketSql, 'SELECT count(*)::int AS n FROM verification_reports WHERE contract_id = $1', [contractId])).toBe(1);
    expect(await receiptsOf(contractId)).toBe(1);
    expect((await rig.market.getContract({ contractId }, OPERATOR)).contract!.status).toBe(ContractStatus.CONTRACT_STATUS_SETTLED);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: 0n, held: 0n });
    expect(await rig.balance(seller.agentId)).toEqual({ available: C('99'), held: 0n });
  });

  it('one dispute resolved 5 times at once with different outcomes: exactly one decision, money moved once', async () => {
    const { buyer, seller, contractId } = await delivered('dup-resolve');
    const disputeId = (await rig.market.openDispute({ contractId, openedBy: buyer.agentId, reason: 'x', evidenceRefs: [], idempotencyKey: '' }, asAgent(buyer.agentId))).dispute!.disputeId;
    const decisions = [
      { outcome: DisputeOutcome.DISPUTE_OUTCOME_SELLER, sellerShareBps: undefined },
      { outcome: DisputeOutcome.DISPUTE_OUTCOME_BUYER, sellerShareBps: undefined },
      { outcome: DisputeOutcome.DISPUTE_OUTCOME_SPLIT, sellerShareBps: 3000 },
      { outcome: DisputeOutcome.DISPUTE_OUTCOME_SPLIT, sellerShareBps: 5000 },
      { outcome: DisputeOutcome.DISPUTE_OUTCOME_BUYER, sellerShareBps: undefined },
    ];
    const outcomes = await Promise.all(decisions.map((d) => outcomeOf(rig.market.resolveDispute({ disputeId, ...d, rationale: 'race', idempotencyKey: '' }, OPERATOR))));
    const won = outcomes.flatMap((o) => (o.ok ? [o.value] : []));
    expect(won).toHaveLength(1);
    expect(outcomes.flatMap((o) => (o.ok ? [] : [o.code]))).toEqual(Array(4).fill('invalid_state'));
    const dispute = won[0].dispute!;
    const expected: Record<number, { buyer: string; seller: string; status: number }> = {
      [DisputeOutcome.DISPUTE_OUTCOME_SELLER]: { buyer: '0', seller: '99', status: ContractStatus.CONTRACT_STATUS_SETTLED },
      [DisputeOutcome.DISPUTE_OUTCOME_BUYER]: { buyer: '100', seller: '0', status: ContractStatus.CONTRACT_STATUS_REFUNDED },
    };
    const e =
      dispute.outcome === DisputeOutcome.DISPUTE_OUTCOME_SPLIT
        ? dispute.sellerShareBps === 3000
          ? { buyer: '70', seller: '29.7', status: ContractStatus.CONTRACT_STATUS_SPLIT }
          : { buyer: '50', seller: '49.5', status: ContractStatus.CONTRACT_STATUS_SPLIT }
        : expected[dispute.outcome!];
    expect((await rig.market.getContract({ contractId }, OPERATOR)).contract!.status).toBe(e.status);
    expect(await rig.balance(buyer.agentId)).toEqual({ available: C(e.buyer), held: 0n });
    expect(await rig.balance(seller.agentId)).toEqual({ available: C(e.seller), held: 0n });
    expect(await receiptsOf(contractId)).toBe(1);
  });

  it('buyer and seller open a dispute at the same moment: one opens, the other 409', async () => {
    const { buyer, seller, contractId } = await delivered('dup-dispute');
    const [a, b] = await Promise.all(
      [buyer, seller].map((p) => outcomeOf(rig.market.openDispute({ contractId, openedBy: p.agentId, reason: 'x', evidenceRefs: [], idempotencyKey: '' }, asAgent(p.agentId)))),
    );
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    expect([a, b].flatMap((o) => (o.ok ? [] : [o.code]))).toEqual(['invalid_state']);
    expect(await countRows(rig.marketSql, "SELECT count(*)::int AS n FROM disputes WHERE contract_id = $1 AND status = 'open'", [contractId])).toBe(1);
  });

  it('one seller offering twice at once: one offer, the other 409 offer_exists', async () => {
    const buyer = rig.agent('dup-offer-buyer');
    const seller = rig.agent('dup-offer-seller');
    const c = await createContract(rig.market, buyer);
    const outcomes = await Promise.all(['10', '11', '12'].map((p) => outcomeOf(submitOffer(rig.market, c.contractId, seller, p))));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.flatMap((o) => (o.ok ? [] : [o.code]))).toEqual(['offer_exists', 'offer_exists']);
  });

  it('the same idempotency key sent 5 times at once: one contract, the others replay it', async () => {
    const buyer = rig.agent('dup-key');
    // One payload (the deadline too): only the key's first use may create.
    const req = marketV1.CreateContractRequest.fromPartial({
      buyerId: buyer.agentId,
      title: 'one intent',
      budget: { amount: '5', currency: 'CREDIT' },
      deadline: new Date(Date.now() + 86_400_000),
      acceptanceCriteria: 'done',
      idempotencyKey: 'one-intent',
    });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => outcomeOf(rig.market.createContract(req, asAgent(buyer.agentId)))));
    const ids = new Set(outcomes.map((o) => (o.ok ? o.value.contract!.contractId : `error:${o.code}`)));
    expect([...ids]).toHaveLength(1);
    expect([...ids][0]).toMatch(/^ctr_/);
    expect(outcomes.filter((o) => o.ok && !o.value.idempotentReplayed)).toHaveLength(1);
    expect(await countRows(rig.marketSql, 'SELECT count(*)::int AS n FROM contracts WHERE buyer_id = $1', [buyer.agentId])).toBe(1);
  });

  it('cancel by the awarded seller racing its own result: final state and escrow agree', async () => {
    for (let round = 0; round < 4; round++) {
      const buyer = rig.agent(`cr${round}-buyer`);
      const seller = rig.agent(`cr${round}-seller`);
      await rig.fund(buyer.agentId, '100');
      const c = await createContract(rig.market, buyer);
      const offer = await submitOffer(rig.market, c.contractId, seller, '100');
      await rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR);
      const [cancel, result] = await Promise.all([
        outcomeOf(rig.market.cancelContract({ contractId: c.contractId, reason: 'race', idempotencyKey: '' }, asAgent(seller.agentId))),
        outcomeOf(rig.market.submitResult({ contractId: c.contractId, sellerId: seller.agentId, summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' }, asAgent(seller.agentId))),
      ]);
      const contract = (await rig.market.getContract({ contractId: c.contractId }, OPERATOR)).contract!;
      if (cancel.ok) {
        expect(result.ok ? 'ok' : result.code).toBe('invalid_state');
        expect(contract).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_CANCELLED, escrowStatus: EscrowStatus.ESCROW_STATUS_RELEASED });
        expect(await rig.balance(buyer.agentId)).toEqual({ available: C('100'), held: 0n });
        expect(await receiptsOf(c.contractId)).toBe(1);
      } else {
        expect(result.ok).toBe(true);
        expect(cancel.code).toBe('invalid_state');
        expect(contract).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_DELIVERED, escrowStatus: EscrowStatus.ESCROW_STATUS_HELD });
        expect(await rig.balance(buyer.agentId)).toEqual({ available: 0n, held: C('100') });
        expect(await receiptsOf(c.contractId)).toBe(0);
      }
    }
    await expectLedgerOk(rig.wallet);
  });

  it('award racing the buyer’s cancel of the open contract: either awarded (cancel refused) or cancelled with no hold left', async () => {
    const seen: string[] = [];
    // lag > 0: the cancel leaves later; lag < 0: the award does.
    for (const lag of [0, 0, 1, 2, 4, 8, 15, 30, -1, -2, -4, -8]) {
      const buyer = rig.agent(`ac${lag}-${seen.length}-buyer`);
      const seller = rig.agent(`ac${lag}-${seen.length}-seller`);
      await rig.fund(buyer.agentId, '40');
      const c = await createContract(rig.market, buyer);
      const offer = await submitOffer(rig.market, c.contractId, seller, '40');
      const award = new Promise((r) => setTimeout(r, Math.max(0, -lag))).then(() =>
        outcomeOf(rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR)),
      );
      const cancel = new Promise((r) => setTimeout(r, Math.max(0, lag))).then(() =>
        outcomeOf(rig.market.cancelContract({ contractId: c.contractId, reason: 'changed my mind', idempotencyKey: '' }, asAgent(buyer.agentId))),
      );
      const [a, k] = await Promise.all([award, cancel]);
      const contract = (await rig.market.getContract({ contractId: c.contractId }, OPERATOR)).contract!;
      const balance = await rig.balance(buyer.agentId);
      seen.push(`${a.ok ? 'award' : a.code}/${k.ok ? 'cancel' : k.code}`);
      if (a.ok) {
        // Refused either as the buyer of an awarded contract, or (the award step still pending
        // when the cancel locked the contract) as "award in progress".
        expect(['not_allowed_to_cancel', 'invalid_state']).toContain(k.ok ? 'ok' : k.code);
        expect(contract).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_AWARDED, escrowStatus: EscrowStatus.ESCROW_STATUS_HELD });
        expect(balance).toEqual({ available: 0n, held: C('40') });
        expect(await holdsOf(buyer.agentId)).toBe(1);
      } else {
        expect(a.code).toBe('invalid_state');
        expect(k.ok).toBe(true);
        expect(contract).toMatchObject({ status: ContractStatus.CONTRACT_STATUS_CANCELLED });
        // No money may stay held for a contract that was never awarded.
        expect(balance).toEqual({ available: C('40'), held: 0n });
      }
      expect(await countRows(rig.marketSql, "SELECT count(*)::int AS n FROM saga_steps WHERE contract_id = $1 AND status = 'pending'", [c.contractId])).toBe(0);
    }
    await expectLedgerOk(rig.wallet);
    console.log(`award vs cancel: ${seen.join(', ')}`);
  });

  it('the seller withdrawing the offer being awarded: either awarded (withdraw 409) or withdrawn with nothing held', async () => {
    const seen: string[] = [];
    for (const lag of [0, 1, 3, 8, -1, -3]) {
      const buyer = rig.agent(`wa${seen.length}-buyer`);
      const seller = rig.agent(`wa${seen.length}-seller`);
      await rig.fund(buyer.agentId, '30');
      const c = await createContract(rig.market, buyer);
      const offer = await submitOffer(rig.market, c.contractId, seller, '30');
      const award = new Promise((r) => setTimeout(r, Math.max(0, -lag))).then(() =>
        outcomeOf(rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR)),
      );
      const withdraw = new Promise((r) => setTimeout(r, Math.max(0, lag))).then(() =>
        outcomeOf(rig.market.withdrawOffer({ offerId: offer.offerId, idempotencyKey: '' }, asAgent(seller.agentId))),
      );
      const [a, w] = await Promise.all([award, withdraw]);
      seen.push(`${a.ok ? 'award' : a.code}/${w.ok ? 'withdraw' : w.code}`);
      const contract = (await rig.market.getContract({ contractId: c.contractId }, OPERATOR)).contract!;
      const o = (await rig.market.getOffer({ offerId: offer.offerId }, OPERATOR)).offer!;
      expect([a.ok, w.ok].filter(Boolean)).toHaveLength(1);
      if (a.ok) {
        expect(w.ok ? 'ok' : w.code).toBe('invalid_state');
        expect([contract.status, o.status]).toEqual([ContractStatus.CONTRACT_STATUS_AWARDED, OfferStatus.OFFER_STATUS_AWARDED]);
        expect(await rig.balance(buyer.agentId)).toEqual({ available: 0n, held: C('30') });
      } else {
        expect(a.code).toBe('invalid_state');
        expect([contract.status, o.status]).toEqual([ContractStatus.CONTRACT_STATUS_OPEN, OfferStatus.OFFER_STATUS_WITHDRAWN]);
        expect(await rig.balance(buyer.agentId)).toEqual({ available: C('30'), held: 0n });
      }
    }
    console.log(`award vs withdraw: ${seen.join(', ')}`);
  });

  // Last in the file: it moves the market's clock past the contracts' deadlines.
  it('the deadline sweeper racing an award past the deadline: the award is refused either way, the contract expires with nothing held', async () => {
    const seen: string[] = [];
    const h = rig.harness;
    for (let round = 0; round < 6; round++) {
      const buyer = rig.agent(`sw${round}-buyer`);
      const seller = rig.agent(`sw${round}-seller`);
      await rig.fund(buyer.agentId, '25');
      const now = h.clock.now();
      const c = await createContract(rig.market, buyer, { deadline: new Date(now.getTime() + 60_000) });
      const offer = (
        await rig.market.submitOffer(
          marketV1.SubmitOfferRequest.fromPartial({ contractId: c.contractId, sellerId: seller.agentId, price: { amount: '25', currency: 'CREDIT' }, eta: new Date(now.getTime() + 30_000) }),
          asAgent(seller.agentId),
        )
      ).offer!;
      h.clock.advance(61_000); // past the deadline for the market
      const [a, swept] = await Promise.all([
        outcomeOf(rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR)),
        new Promise((r) => setTimeout(r, round % 3)).then(() => h.market.workers.sweep()),
      ]);
      const contract = (await rig.market.getContract({ contractId: c.contractId }, OPERATOR)).contract!;
      seen.push(`${a.ok ? 'award' : a.code}/swept ${swept}/${ContractStatus[contract.status]}`);
      // The award lands past the deadline: refused before the sweep (409 deadline_passed, the
      // contract left open for the sweeper) or after it (409 invalid_state, expired).
      expect(['deadline_passed', 'invalid_state']).toContain(a.ok ? 'ok' : a.code);
      expect(contract.status).toBe(ContractStatus.CONTRACT_STATUS_EXPIRED);
      expect(await rig.balance(buyer.agentId)).toEqual({ available: C('25'), held: 0n });
      expect(await countRows(rig.marketSql, "SELECT count(*)::int AS n FROM saga_steps WHERE contract_id = $1 AND kind = 'award'", [c.contractId])).toBe(0);
      expect(await countRows(rig.marketSql, "SELECT count(*)::int AS n FROM saga_steps WHERE contract_id = $1 AND status = 'pending'", [c.contractId])).toBe(0);
    }
    await expectLedgerOk(rig.wallet);
    console.log(`award vs sweep: ${seen.join(', ')}`);
  });
});
