import { status } from '@grpc/grpc-js';
import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { marketV1Insights } from '@exchange/proto';
import { grpcError, startMarketHarness, type MarketHarness } from './market-harness';
import { insertContract, insertListing, insertOffer } from './insights-fixtures';
import { InsightsService, type InsightsDeps } from '../src/insights/insights.service';
import type { MatchingSignals } from '../src/insights/matching';

type InsightsClient = PromiseClient<typeof marketV1Insights.MarketInsightsServiceService>;
const W = marketV1Insights.InsightWindow;
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
    h = await startMarketHarness({ name: 'market_insights' });
    insights = createServiceClient(marketV1Insights.MarketInsightsServiceService, `127.0.0.1:${h.market.grpcPort}`);
    T = new Date(Math.floor((Date.now() - DAY) / 1000) * 1000);
  }, 120_000);
  afterAll(async () => {
    insights?.close();
    await h?.close();
  });

  describe('GetPriceIndex', () => {
    beforeAll(async () => {
      const sql = h.marketSql;
      const buyer = h.newAgent('buyer').agentId;
      const seller = h.newAgent('seller').agentId;
      const settled = (price: bigint, settledAt: Date, over: Partial<Parameters<typeof insertContract>[1]> = {}) =>
        insertContract(sql, { buyerId: buyer, sellerId: seller, tags: ['px-a'], price, createdAt: at(-20 * DAY), awardedAt: at(-20 * DAY), settledAt, ...over });
      await settled(10n * M, at(-2 * HOUR), { tags: ['px-a', 'px-b'] });
      await settled(20n * M, at(-30 * HOUR));
      await settled(30n * M, at(-3 * DAY));
      await settled(40n * M, at(-10 * DAY));
      await settled(1000n * M, at(-90 * 60_000), { sandbox: true });
      await settled(500n * M, at(-HOUR), { correctedAt: at(-30 * 60_000) });
      await settled(700n * M, at(HOUR)); // after as_of
      await settled(5n * M, at(-30 * 60_000), { currency: 'EUR' });
    });

    const ask = (over: Partial<marketV1Insights.GetPriceIndexRequest> = {}) =>
      insights.getPriceIndex({ window: W.INSIGHT_WINDOW_ALL, asOf: T, includeSandbox: false, tag: 'px-a', ...over });
    const row = (tag: string, currency: string, count: number, min: string, p25: string, median: string, p75: string, max: string) => ({
      tag,
      currency,
      count,
      min,
      p25,
      median,
      p75,
      max,
    });

    it('should give R-7 percentiles per tag and currency as of a past time', async () => {
      const res = await ask();
      expect(res).toEqual({
        window: W.INSIGHT_WINDOW_ALL,
        asOf: T,
        includeSandbox: false,
        entries: [row('px-a', 'CREDIT', 4, '10', '17.5', '25', '32.5', '40'), row('px-a', 'EUR', 1, '5', '5', '5', '5', '5')],
      });
      // with the sandbox contract: 10, 20, 30, 40, 1000
      expect((await ask({ includeSandbox: true })).entries[0]).toEqual(row('px-a', 'CREDIT', 5, '10', '20', '30', '40', '1000'));
      // not asked: this market runs in sandbox (EXCHANGE_ENV), so sandbox contracts count, as on the tape
      const byDefault = await ask({ includeSandbox: undefined });
      expect({ includeSandbox: byDefault.includeSandbox, first: byDefault.entries[0] }).toEqual({
        includeSandbox: true,
        first: row('px-a', 'CREDIT', 5, '10', '20', '30', '40', '1000'),
      });
      // before the erroneous clear the corrected contract still counted: 10, 20, 30, 40, 500
      expect((await ask({ asOf: at(-45 * 60_000) })).entries[0]).toEqual(row('px-a', 'CREDIT', 5, '10', '20', '30', '40', '500'));
      // one contract counts in each of its tags
      expect((await ask({ tag: 'px-b' })).entries).toEqual([row('px-b', 'CREDIT', 1, '10', '10', '10', '10', '10')]);
    });

    it('should cut the windows at as_of', async () => {
      expect((await ask({ window: W.INSIGHT_WINDOW_1D })).entries.map((e) => [e.currency, e.count, e.median])).toEqual([
        ['CREDIT', 1, '10'],
        ['EUR', 1, '5'],
      ]);
      expect((await ask({ window: W.INSIGHT_WINDOW_7D })).entries[0]).toMatchObject({ count: 3, median: '20' });
      expect((await ask({ window: W.INSIGHT_WINDOW_30D })).entries[0]).toMatchObject({ count: 4 });
      expect((await ask({ window: W.INSIGHT_WINDOW_1H })).entries.map((e) => e.currency)).toEqual(['EUR']);
    });

    it('should answer [] for an empty window', async () => {
      expect((await ask({ window: W.INSIGHT_WINDOW_1H, tag: 'px-b' })).entries).toEqual([]);
      expect((await ask({ asOf: at(-30 * DAY) })).entries).toEqual([]);
    });

    it('should refuse a future as_of, an unknown window and a malformed tag', async () => {
      expect(await grpcError(ask({ asOf: new Date(Date.now() + HOUR) }))).toMatchObject({ code: 'validation_failed' });
      expect(await grpcError(ask({ window: 99 as marketV1Insights.InsightWindow }))).toMatchObject({ code: 'validation_failed' });
      expect(await grpcError(ask({ tag: 'Not A Tag' }))).toMatchObject({ code: 'validation_failed' });
    });
  });

  describe('GetTaskTape', () => {
    // Far in the past so the other tests' contracts stay out of the windows.
    let T2: Date;
    beforeAll(async () => {
      T2 = new Date(T.getTime() - 400 * DAY);
      const at2 = (ms: number) => new Date(T2.getTime() + ms);
      const sql = h.marketSql;
      const buyer = h.newAgent('buyer').agentId;
      const seller = h.newAgent('seller').agentId;
      await insertContract(sql, { buyerId: buyer, sellerId: seller, budget: 100n * M, price: 90n * M, createdAt: at2(-2 * HOUR), awardedAt: at2(-HOUR), settledAt: at2(-30 * 60_000) });
      await insertContract(sql, { buyerId: buyer, budget: 50n * M, createdAt: at2(-3 * HOUR), sandbox: true });
      await insertContract(sql, { buyerId: buyer, sellerId: seller, budget: 70n * M, price: 60n * M, currency: 'EUR', createdAt: at2(-2 * DAY), awardedAt: at2(-5 * HOUR) });
      await insertContract(sql, {
        buyerId: buyer,
        sellerId: seller,
        budget: 40n * M,
        price: 30n * M,
        createdAt: at2(-3 * HOUR),
        awardedAt: at2(-2 * HOUR),
        settledAt: at2(-HOUR),
        correctedAt: at2(-10 * 60_000),
      });
      await insertContract(sql, { buyerId: buyer, budget: 1n * M, createdAt: at2(HOUR) }); // after as_of
    });
    const ask = (over: Partial<marketV1Insights.GetTaskTapeRequest> = {}) => insights.getTaskTape({ window: W.INSIGHT_WINDOW_1D, asOf: T2, ...over });

    it('should count opened, awarded and settled per currency in the window', async () => {
      expect(await ask()).toEqual({
        window: W.INSIGHT_WINDOW_1D,
        asOf: T2,
        includeSandbox: true,
        opened: { count: 3, volume: [{ amount: '190', currency: 'CREDIT' }] },
        awarded: { count: 3, volume: [{ amount: '120', currency: 'CREDIT' }, { amount: '60', currency: 'EUR' }] },
        settled: { count: 1, volume: [{ amount: '90', currency: 'CREDIT' }] },
      });
      expect((await ask({ includeSandbox: false })).opened).toEqual({ count: 2, volume: [{ amount: '140', currency: 'CREDIT' }] });
      expect((await ask({ window: W.INSIGHT_WINDOW_ALL })).opened).toEqual({
        count: 4,
        volume: [
          { amount: '190', currency: 'CREDIT' },
          { amount: '70', currency: 'EUR' },
        ],
      });
      const hour = await ask({ window: W.INSIGHT_WINDOW_1H });
      expect([hour.opened!.count, hour.awarded!.count, hour.settled!.count]).toEqual([0, 0, 1]);
    });

    it('should answer zeros for an empty window and refuse 30d and a future as_of', async () => {
      const empty = await ask({ asOf: new Date(T2.getTime() - 100 * DAY) });
      expect([empty.opened, empty.awarded, empty.settled]).toEqual([
        { count: 0, volume: [] },
        { count: 0, volume: [] },
        { count: 0, volume: [] },
      ]);
      expect(await grpcError(ask({ window: W.INSIGHT_WINDOW_30D }))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed' });
      expect(await grpcError(ask({ asOf: new Date(Date.now() + HOUR) }))).toMatchObject({ code: 'validation_failed' });
    });
  });

  describe('RecommendSellers / RecommendContracts', () => {
    const now = () => h.clock.now();
    let buyer: string;
    let verifier: string;
    let strong: string;
    let pricey: string;
    let strongListing: string;
    let contractId: string;
    const newcomers: string[] = [];

    beforeAll(async () => {
      const sql = h.marketSql;
      buyer = h.newAgent('buyer').agentId;
      verifier = h.newAgent('verifier').agentId;
      strong = h.newAgent('strong').agentId;
      pricey = h.newAgent('pricey').agentId;
      const t = (ms: number) => new Date(now().getTime() + ms);
      strongListing = await insertListing(sql, { sellerId: strong, tags: ['rec-x', 'rec-y'], price: 80n * M, createdAt: t(-DAY) });
      await insertListing(sql, { sellerId: pricey, tags: ['rec-x'], price: 200n * M, createdAt: t(-DAY) });
      for (const s of [strong, pricey]) {
        for (let i = 0; i < 3; i++) {
          await insertContract(sql, { buyerId: h.newAgent('b').agentId, sellerId: s, tags: ['rec-x'], price: 50n * M, createdAt: t(-5 * DAY), awardedAt: t(-5 * DAY), settledAt: t(-4 * DAY) });
        }
      }
      // the verifier and the buyer have listings too: they must never be proposed
      await insertListing(sql, { sellerId: verifier, tags: ['rec-x', 'rec-y'], price: 1n * M, createdAt: t(-DAY) });
      await insertListing(sql, { sellerId: buyer, tags: ['rec-x', 'rec-y'], price: 1n * M, createdAt: t(-DAY) });
      for (let i = 0; i < 12; i++) {
        const n = h.newAgent('newcomer').agentId;
        newcomers.push(n);
        await insertListing(sql, { sellerId: n, tags: ['rec-other'], price: 100n * M, createdAt: t(-2 * DAY) });
      }
      contractId = await insertContract(sql, { buyerId: buyer, verifierId: verifier, tags: ['rec-x', 'rec-y'], budget: 100n * M, createdAt: t(-HOUR), deadline: t(DAY) });
    });

    it('should rank by the documented signals and never propose the buyer or the verifier', async () => {
      const res = await insights.recommendSellers({ contractId, limit: 50, explorationRate: 0, requestId: 'req_rank' });
      expect(res.explorationSlots).toBe(0);
      expect(res.requestId).toBe('req_rank');
      const ids = res.sellers.map((s) => s.sellerId);
      expect(ids).not.toContain(buyer);
      expect(ids).not.toContain(verifier);
      expect(res.sellers[0]).toMatchObject({ sellerId: strong, rank: 1, exploration: false, listingId: strongListing });
      expect(res.sellers[0].signals).toMatchObject({ tagMatch: 1, priceFit: 1 });
      expect(res.sellers[0].signals!.matching).toBeUndefined();
      expect(res.sellers[0].signals!.reputation).toBeGreaterThan(0.5);
      const p = res.sellers.find((s) => s.sellerId === pricey)!;
      expect(p.signals).toMatchObject({ tagMatch: 0.5, priceFit: 0.5 });
      expect(p.rank).toBe(2);
      expect(res.sellers.map((s) => s.rank)).toEqual(res.sellers.map((_, i) => i + 1));
      for (let i = 1; i < res.sellers.length; i++) expect(res.sellers[i - 1].score).toBeGreaterThanOrEqual(res.sellers[i].score);
    });

    it('should give the same answer for the same request id and round(limit × rate) exploration slots', async () => {
      const ask = (requestId: string) => insights.recommendSellers({ contractId, limit: 10, explorationRate: 0.3, requestId });
      const a = await ask('req_fixed');
      expect(await ask('req_fixed')).toEqual(a);
      expect(a.explorationSlots).toBe(3);
      const explored = a.sellers.filter((s) => s.exploration);
      expect(Math.abs(explored.length - 3)).toBeLessThanOrEqual(1);
      expect(explored.map((s) => s.rank)).toEqual([3, 6, 9]);
      expect(a.sellers.slice(0, 2).map((s) => s.sellerId)).toEqual([strong, pricey]);
      // without a request id the handler seeds with the call's request id, and echoes it
      const generated = await insights.recommendSellers({ contractId, limit: 10, explorationRate: 0.3, requestId: '' });
      expect(generated.requestId).not.toBe('');
    });

    it('should blend a telemetry matching boost through the MatchingSignals hook', async () => {
      const matching: MatchingSignals = {
        forSellers: async (_contractId, ids) => new Map(ids.filter((x) => x === pricey).map((x) => [x, 1])),
        forContracts: async () => new Map(),
      };
      // recommendations read only the pool and the clock of the market context
      const service = new InsightsService({ pool: h.marketSql, clock: () => h.clock.now() } as unknown as InsightsDeps, matching);
      const plain = await insights.recommendSellers({ contractId, limit: 50, explorationRate: 0, requestId: 'req_m' });
      const boosted = await service.recommendSellers({ contractId, limit: 50, explorationRate: 0, requestId: 'req_m' }, 'unused');
      const before = plain.sellers.find((x) => x.sellerId === pricey)!;
      const after = boosted.sellers.find((x) => x.sellerId === pricey)!;
      expect(after.signals!.matching).toBe(1);
      expect(after.score).toBeCloseTo(0.85 * before.score + 0.15, 6);
      expect(boosted.sellers.find((x) => x.sellerId === strong)!.signals!.matching).toBeUndefined();
    });

    it('should refuse limit and exploration_rate out of range (400) and an unknown contract (404)', async () => {
      for (const bad of [{ limit: 0 }, { limit: 51 }, { explorationRate: 1.5 }, { explorationRate: -0.1 }]) {
        expect(await grpcError(insights.recommendSellers({ contractId, requestId: 'r', ...bad }))).toMatchObject({ code: 'validation_failed' });
      }
      expect(await grpcError(insights.recommendSellers({ contractId: 'ctr_missing', requestId: 'r' }))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'contract_not_found',
      });
    });

    it('should recommend open contracts a seller may still offer on', async () => {
      const sql = h.marketSql;
      const t = (ms: number) => new Date(now().getTime() + ms);
      const own = await insertContract(sql, { buyerId: strong, tags: ['rec-x'], createdAt: t(-HOUR), deadline: t(DAY) });
      const verifies = await insertContract(sql, { buyerId: buyer, verifierId: strong, tags: ['rec-x'], createdAt: t(-HOUR), deadline: t(DAY) });
      const offered = await insertContract(sql, { buyerId: buyer, tags: ['rec-x'], createdAt: t(-HOUR), deadline: t(DAY) });
      await insertOffer(sql, { contractId: offered, sellerId: strong, createdAt: t(-HOUR / 2) });
      const late = await insertContract(sql, { buyerId: buyer, tags: ['rec-x'], createdAt: t(-2 * DAY), deadline: t(-HOUR) });
      const res = await insights.recommendContracts({ sellerId: strong, limit: 50, explorationRate: 0, requestId: 'req_c' });
      const ids = res.contracts.map((c) => c.contractId);
      expect(ids).toContain(contractId);
      for (const excluded of [own, verifies, offered, late]) expect(ids).not.toContain(excluded);
      const best = res.contracts.find((c) => c.contractId === contractId)!;
      expect(best.signals).toMatchObject({ tagMatch: 1, priceFit: 1, reputation: 0.5 });
      expect(await insights.recommendContracts({ sellerId: strong, limit: 5, explorationRate: 0.4, requestId: 'req_c' })).toEqual(
        await insights.recommendContracts({ sellerId: strong, limit: 5, explorationRate: 0.4, requestId: 'req_c' }),
      );
      expect(await grpcError(insights.recommendContracts({ sellerId: 'test:nobody', requestId: 'r' }))).toMatchObject({ code: 'agent_not_found' });
      expect(await grpcError(insights.recommendContracts({ sellerId: strong, limit: 51, requestId: 'r' }))).toMatchObject({ code: 'validation_failed' });
    });
  });
});
