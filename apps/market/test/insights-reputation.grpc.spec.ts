import { status } from '@grpc/grpc-js';
import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { marketV1, marketV1Insights } from '@exchange/proto';
import { awardedContract, grpcError, startMarketHarness, type MarketHarness } from './market-harness';
import { insertContract, insertDispute, insertReport } from './insights-fixtures';

type InsightsClient = PromiseClient<typeof marketV1Insights.MarketInsightsServiceService>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const M = 1_000_000n; // micro-units per unit

describe('market insights (gRPC, seeded history)', () => {
  let h: MarketHarness;
  let insights: InsightsClient;
  // as_of one day back: the facts after it must never count.
  let T: Date;
  const at = (offsetMs: number) => new Date(T.getTime() + offsetMs);

  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_insights_reputation' });
    insights = createServiceClient(marketV1Insights.MarketInsightsServiceService, `127.0.0.1:${h.market.grpcPort}`);
    T = new Date(Math.floor((Date.now() - DAY) / 1000) * 1000);
  }, 120_000);
  afterAll(async () => {
    insights?.close();
    await h?.close();
  });

  describe('GetReputation (rep-v1)', () => {
    it('should match the hand-computed score as of a past time, unchanged by later activity', async () => {
      const seller = h.newAgent('seller').agentId;
      const buyer = h.newAgent('buyer').agentId;
      const sql = h.marketSql;
      const c1 = await insertContract(sql, { buyerId: buyer, sellerId: seller, price: 10n * M, createdAt: at(-6 * DAY), awardedAt: at(-6 * DAY), settledAt: T, receiptId: 'rcpt_r1' });
      await insertContract(sql, { buyerId: buyer, sellerId: seller, price: 20n * M, createdAt: at(-6 * DAY), awardedAt: at(-6 * DAY), settledAt: at(-5 * DAY), receiptId: 'rcpt_r0' });
      // corrected by as_of: not a settlement
      await insertContract(sql, { buyerId: buyer, sellerId: seller, price: 7n * M, createdAt: at(-2 * DAY), awardedAt: at(-2 * DAY), settledAt: at(-DAY), correctedAt: at(-DAY / 2), receiptId: 'rcpt_corr' });
      // before the window (10 days)
      await insertContract(sql, { buyerId: buyer, sellerId: seller, price: 3n * M, createdAt: at(-20 * DAY), awardedAt: at(-20 * DAY), settledAt: at(-11 * DAY), receiptId: 'rcpt_old' });
      const failed = await insertContract(sql, { buyerId: buyer, sellerId: seller, createdAt: at(-6 * DAY), awardedAt: at(-6 * DAY), status: 'awarded' });
      await insertReport(sql, { contractId: failed, sellerId: seller, verifierId: buyer, verdict: 'fail', resultAt: at(-5 * DAY - 1000), reportAt: at(-5 * DAY) });
      const lost = await insertContract(sql, { buyerId: buyer, sellerId: seller, createdAt: at(-3 * DAY), awardedAt: at(-3 * DAY), status: 'refunded' });
      await insertDispute(sql, { contractId: lost, openedBy: buyer, outcome: 'buyer', resolvedAt: T });
      const split = await insertContract(sql, { buyerId: buyer, sellerId: seller, createdAt: at(-3 * DAY), awardedAt: at(-3 * DAY), status: 'split' });
      await insertDispute(sql, { contractId: split, openedBy: buyer, outcome: 'split', sellerShareBps: 2500, resolvedAt: T });
      // the agent as buyer: one settlement, one dispute it opened and lost
      const other = h.newAgent('other').agentId;
      await insertContract(sql, { id: `ctr_zz_${seller}`, buyerId: seller, sellerId: other, price: 5n * M, createdAt: at(-2 * DAY), awardedAt: at(-2 * DAY), settledAt: T, receiptId: 'rcpt_rb' });
      const openedLost = await insertContract(sql, { buyerId: seller, sellerId: other, createdAt: at(-6 * DAY), awardedAt: at(-6 * DAY), status: 'settled' });
      await insertDispute(sql, { contractId: openedLost, openedBy: seller, outcome: 'seller', resolvedAt: at(-5 * DAY) });

      const ask = (over: Partial<marketV1Insights.GetReputationRequest> = {}) =>
        insights.getReputation({ agentId: seller, windowDays: 10, asOf: T, includeReceipts: true, ...over }).then((r) => r.reputation!);
      const expected = {
        agentId: seller,
        windowDays: 10,
        asOf: T,
        formula: 'rep-v1',
        components: {
          settledAsSeller: 2,
          settledAsBuyer: 1,
          verificationsPassed: 0,
          verificationsFailed: 1,
          disputesWon: 0,
          disputesLost: 2,
          disputesSplit: 1,
          evidenceWeight: 6.75,
        },
        volume: [{ amount: '30', currency: 'CREDIT' }],
        receiptIds: ['rcpt_r0', 'rcpt_r1', 'rcpt_rb'],
      };
      const first = await ask();
      // Σw = 6.75, Σw·x = 2.5 → (1 + 2.5) / 8.75 = 0.4; confidence 6.75 / 8.75 (half-life 5 days)
      expect(first).toMatchObject(expected);
      expect(first.score).toBeCloseTo(0.4, 9);
      expect(first.confidence).toBeCloseTo(6.75 / 8.75, 9);

      // Later activity: a settlement and a lost dispute after as_of.
      await insertContract(sql, { buyerId: buyer, sellerId: seller, price: 50n * M, createdAt: at(HOUR), awardedAt: at(HOUR), settledAt: at(2 * HOUR), receiptId: 'rcpt_late' });
      await insertDispute(sql, { contractId: c1, openedBy: buyer, outcome: 'buyer', resolvedAt: at(3 * HOUR) });
      expect(await ask()).toEqual(first);

      expect((await ask({ includeReceipts: false })).receiptIds).toEqual([]);
      const now = await ask({ asOf: undefined, windowDays: undefined });
      expect(now.windowDays).toBe(90);
      expect(now.components).toMatchObject({ settledAsSeller: 4, disputesLost: 3 });
      expect(now.volume).toEqual([{ amount: '83', currency: 'CREDIT' }]);
    });

    it('should count a settlement made through the market service with its receipt', async () => {
      const a = await awardedContract(h);
      const { result } = await h.client.submitResult(
        { contractId: a.contract.contractId, sellerId: '', summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' },
        h.as(a.seller),
      );
      const checks = [{ name: 'ok', ok: true }];
      const signature = h.signReport(a.buyer, { verifierId: a.buyer.agentId, resultId: result!.resultId, verdict: 'pass', score: 1, checks });
      const settled = await h.client.submitVerification(
        { contractId: a.contract.contractId, verifierId: '', resultId: result!.resultId, verdict: marketV1.Verdict.VERDICT_PASS, score: 1, checks, signature, idempotencyKey: '' },
        h.as(a.buyer),
      );
      const { reputation } = await insights.getReputation({ agentId: a.seller.agentId, includeReceipts: true });
      expect(reputation!.components).toMatchObject({ settledAsSeller: 1, verificationsPassed: 1 });
      expect(reputation!.receiptIds).toEqual([settled.contract!.receiptId]);
      expect(reputation!.volume).toEqual([{ amount: '100', currency: 'CREDIT' }]);
      // two fresh observations (w 1 and 0.5, x 1): (1 + 1.5) / 3.5, up to the seconds of decay
      expect(reputation!.score).toBeCloseTo(2.5 / 3.5, 4);
      const buyerRep = (await insights.getReputation({ agentId: a.buyer.agentId, includeReceipts: false })).reputation!;
      expect(buyerRep.components?.settledAsBuyer).toBe(1);
    });

    it('should answer the prior for an empty window', async () => {
      const agent = h.newAgent('new').agentId;
      const { reputation } = await insights.getReputation({ agentId: agent, includeReceipts: true });
      expect(reputation).toMatchObject({
        score: 0.5,
        confidence: 0,
        windowDays: 90,
        volume: [],
        receiptIds: [],
        components: { settledAsSeller: 0, settledAsBuyer: 0, verificationsPassed: 0, verificationsFailed: 0, disputesWon: 0, disputesLost: 0, disputesSplit: 0, evidenceWeight: 0 },
      });
    });

    it('should refuse unknown agents (404), a future as_of and window_days outside 1–3650 (400)', async () => {
      expect(await grpcError(insights.getReputation({ agentId: 'test:nobody', includeReceipts: false }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'agent_not_found' });
      const agent = h.newAgent().agentId;
      const future = new Date(Date.now() + HOUR);
      expect(await grpcError(insights.getReputation({ agentId: agent, asOf: future, includeReceipts: false }))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'validation_failed',
      });
      for (const windowDays of [0, 3651]) {
        expect(await grpcError(insights.getReputation({ agentId: agent, windowDays, includeReceipts: false }))).toMatchObject({ code: 'validation_failed' });
      }
    });
  });

  describe('GetVerifierReputation (vrep-v1)', () => {
    it('should compute agreement with disputes resolved by as_of and the median latency', async () => {
      const verifier = h.newAgent('verifier').agentId;
      const seller = h.newAgent('seller').agentId;
      const buyer = h.newAgent('buyer').agentId;
      const sql = h.marketSql;
      const mk = () => insertContract(sql, { buyerId: buyer, sellerId: seller, verifierId: verifier, createdAt: at(-3 * DAY), awardedAt: at(-3 * DAY), status: 'disputed' });
      const a = await mk();
      await insertReport(sql, { contractId: a, sellerId: seller, verifierId: verifier, verdict: 'fail', resultAt: at(-2 * DAY - 1000), reportAt: at(-2 * DAY) });
      await insertDispute(sql, { contractId: a, openedBy: seller, outcome: 'buyer', resolvedAt: at(-DAY) }); // agrees: 1
      const b = await mk();
      await insertReport(sql, { contractId: b, sellerId: seller, verifierId: verifier, verdict: 'pass', resultAt: at(-2 * DAY - 3000), reportAt: at(-2 * DAY) });
      await insertDispute(sql, { contractId: b, openedBy: buyer, outcome: 'split', sellerShareBps: 2500, resolvedAt: at(-DAY) }); // 0.25
      const c = await mk();
      await insertReport(sql, { contractId: c, sellerId: seller, verifierId: verifier, verdict: 'pass', resultAt: at(-2 * DAY - 2000), reportAt: at(-2 * DAY) });
      await insertDispute(sql, { contractId: c, openedBy: buyer, outcome: 'buyer', resolvedAt: at(HOUR) }); // after as_of
      await insertReport(sql, { contractId: c, sellerId: seller, verifierId: verifier, verdict: 'fail', resultAt: at(HOUR), reportAt: at(2 * HOUR) }); // after as_of

      const { reputation } = await insights.getVerifierReputation({ verifierId: verifier, windowDays: 30, asOf: T });
      // (2·0.5 + 1.25) / (2 + 2) = 0.5625
      expect(reputation).toEqual({
        verifierId: verifier,
        score: 0.5625,
        confidence: 0.5,
        windowDays: 30,
        asOf: T,
        reports: 3,
        passed: 2,
        failed: 1,
        disputed: 2,
        agreements: 1.25,
        agreementRate: 0.625,
        medianLatencyMs: '2000',
        formula: 'vrep-v1',
      });
      const now = (await insights.getVerifierReputation({ verifierId: verifier })).reputation!;
      // now the later dispute (buyer) judges both reports on c: the pass disagrees (0), the fail agrees (1)
      // → (1 + 2.25) / (2 + 4)
      expect(now).toMatchObject({ reports: 4, disputed: 4, agreements: 2.25, agreementRate: 0.5625 });
      expect(now.score).toBeCloseTo(3.25 / 6, 9);
    });

    it('should answer a registered verifier without reports at the prior, with nulls', async () => {
      const v = h.newAgent('verifier');
      await h.client.registerVerifier({ verifierId: '', name: 'V', description: 'checks', tags: ['nlp'], fee: undefined, idempotencyKey: '' }, h.as(v));
      const { reputation } = await insights.getVerifierReputation({ verifierId: v.agentId });
      expect(reputation).toMatchObject({ score: 0.5, confidence: 0, reports: 0, disputed: 0, agreements: 0 });
      expect(reputation!.agreementRate).toBeUndefined();
      expect(reputation!.medianLatencyMs).toBeUndefined();
    });

    it('should refuse an unknown verifier (404 verifier_not_found) and bad windows (400)', async () => {
      expect(await grpcError(insights.getVerifierReputation({ verifierId: 'test:nobody' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'verifier_not_found' });
      expect(await grpcError(insights.getVerifierReputation({ verifierId: 'test:nobody', windowDays: 0 }))).toMatchObject({ code: 'validation_failed' });
    });
  });
});
