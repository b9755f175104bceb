import { parseAmount } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { OPERATOR, asAgent, countRows, createContract, expectLedgerOk, outcomeOf, signReport, startMarketRig, submitOffer, type MarketRig } from '../fault/support/market-rig';

// More races on one contract through a real market process and a real wallet-ledger: repeated
// verdicts and resolutions, simultaneous disputes, offers and idempotent creates, and the cancel,
// withdraw and deadline sweeper racing an award or a result (races.spec.ts: awards, dispute vs verdict).

const { ContractStatus, EscrowStatus, OfferStatus, DisputeOutcome, Verdict } = marketV1;
const C = (amount: string) => parseAmount(amount);

let rig: MarketRig;

beforeAll(async () => {
  rig = await startMarketRig('races_more', 'in-process');
});

afterAll(async () => {
  await rig?.close();
});

const holdsOf = (agentId: string) => countRows(rig.walletSql, 'SELECT count(*)::int AS n FROM holds WHERE agent_id = $1', [agentId]);
const receiptsOf = (contractId: string) => countRows(rig.walletSql, 'SELECT count(*)::int AS n FROM receipts WHERE contract_id = $1', [contractId]);

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
