import { status } from '@grpc/grpc-js';
import { createServiceClient, DomainError, type PromiseClient } from '@exchange/platform';
import { marketV1Insights, telemetryV1 } from '@exchange/proto';
import { startProtoFake, type ProtoFake } from '@exchange/testing';
import { startMarketHarness, type MarketHarness } from './market-harness';
import { insertContract, insertListing } from './insights-fixtures';

// Recommendations take telemetry's matching boosts (GetMatchingBoosts, TELEMETRY_GRPC_URL) and
// keep answering without them when telemetry fails, is too slow or is down. The candidates are
// seeded twins (same tags, price, dates), so the boost alone decides their order.

type InsightsClient = PromiseClient<typeof marketV1Insights.MarketInsightsServiceService>;
type Boosts = telemetryV1.GetMatchingBoostsRequest;
const M = 1_000_000n;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('market recommendations with telemetry matching boosts (fake TelemetryService)', () => {
  let telemetry: ProtoFake;
  let h: MarketHarness;
  let insights: InsightsClient;
  // What the fake answers: boosts by candidate id, or a way to fail.
  let answer: Record<string, number> | 'unavailable' | 'slow' = {};
  let sellers: string[];
  let contractId: string;
  let seller: string;
  let contracts: string[];

  beforeAll(async () => {
    telemetry = await startProtoFake(telemetryV1.TelemetryServiceService, {
      getMatchingBoosts: async () => {
        if (answer === 'unavailable') throw new DomainError(status.UNAVAILABLE, 'unavailable', 'telemetry is catching up');
        if (answer === 'slow') await new Promise((r) => setTimeout(r, 3000).unref()); // past the market's 500 ms deadline
        const boosts = typeof answer === 'object' ? answer : {};
        return { boosts: Object.entries(boosts).map(([candidateId, boost]) => ({ candidateId, boost })) };
      },
    });
    h = await startMarketHarness({ name: 'market_matching', env: { TELEMETRY_GRPC_URL: telemetry.address } });
    insights = createServiceClient(marketV1Insights.MarketInsightsServiceService, `127.0.0.1:${h.market.grpcPort}`);
    const sql = h.marketSql;
    const at = new Date(Math.floor((h.clock.now().getTime() - HOUR) / 1000) * 1000);
    sellers = [h.newAgent('twin').agentId, h.newAgent('twin').agentId];
    for (const s of sellers) await insertListing(sql, { sellerId: s, tags: ['match-x'], price: 100n * M, createdAt: at });
    contractId = await insertContract(sql, { buyerId: h.newAgent('buyer').agentId, tags: ['match-x'], budget: 100n * M, createdAt: at, deadline: new Date(at.getTime() + DAY) });
    seller = h.newAgent('seller').agentId;
    await insertListing(sql, { sellerId: seller, tags: ['match-y'], price: 100n * M, createdAt: at });
    const buyer = h.newAgent('buyer').agentId;
    contracts = [];
    for (let i = 0; i < 2; i++) {
      contracts.push(await insertContract(sql, { buyerId: buyer, tags: ['match-y'], budget: 100n * M, createdAt: at, deadline: new Date(at.getTime() + DAY) }));
    }
  }, 120_000);
  afterAll(async () => {
    insights?.close();
    await h?.close();
    await telemetry?.stop();
  });

  const askSellers = async () => {
    const res = await insights.recommendSellers({ contractId, limit: 50, explorationRate: 0, requestId: 'req_match' });
    return res.sellers.filter((s) => sellers.includes(s.sellerId));
  };
  const askContracts = async () => {
    const res = await insights.recommendContracts({ sellerId: seller, limit: 50, explorationRate: 0, requestId: 'req_match' });
    return res.contracts.filter((c) => contracts.includes(c.contractId));
  };

  it('RecommendSellers: the sellers telemetry boosts carry `matching` and rank by it', async () => {
    answer = {};
    const plain = await askSellers();
    expect(plain.map((s) => s.signals!.matching)).toEqual([undefined, undefined]);
    const [first, second] = plain.map((s) => s.sellerId);
    // Boost the one that came second: it comes first, with score 0.85·score + 0.15·boost.
    answer = { [second]: 1, [first]: 0.2 };
    const boosted = await askSellers();
    expect(boosted.map((s) => [s.sellerId, s.signals!.matching])).toEqual([[second, 1], [first, 0.2]]);
    expect(boosted[0].score).toBeCloseTo(0.85 * plain[1].score + 0.15, 6);
    expect(boosted[0].rank).toBeLessThan(boosted[1].rank);
    const asked = telemetry.lastCall<Boosts>('getMatchingBoosts');
    expect(asked.request).toMatchObject({ contractId, sellerIds: expect.arrayContaining(sellers), contractIds: [] });
    expect(asked.request.sellerId).toBeUndefined();
    expect(asked.ctx.actor).toBeNull(); // as a service
  });

  it('RecommendContracts: the contracts telemetry boosts carry `matching` and rank by it', async () => {
    answer = {};
    const plain = await askContracts();
    expect(plain.map((c) => c.signals!.matching)).toEqual([undefined, undefined]);
    const second = plain[1].contractId;
    answer = { [second]: 0.9 };
    const boosted = await askContracts();
    expect(boosted[0]).toMatchObject({ contractId: second, signals: { matching: 0.9 } });
    expect(boosted[1].signals!.matching).toBeUndefined();
    expect(telemetry.lastCall<Boosts>('getMatchingBoosts').request).toMatchObject({ sellerId: seller, contractIds: expect.arrayContaining(contracts), sellerIds: [] });
  });

  it('answers without matching when telemetry fails or is too slow', async () => {
    answer = {};
    const plainSellers = await askSellers();
    const plainContracts = await askContracts();
    for (const failure of ['unavailable', 'slow'] as const) {
      answer = failure;
      expect(await askSellers()).toEqual(plainSellers);
      expect(await askContracts()).toEqual(plainContracts);
    }
  });

  it('answers without matching when telemetry is down', async () => {
    answer = { [sellers[0]]: 1, [sellers[1]]: 1 };
    expect((await askSellers()).map((s) => s.signals!.matching)).toEqual([1, 1]);
    await telemetry.stop();
    const down = await askSellers();
    expect(down.map((s) => s.signals!.matching)).toEqual([undefined, undefined]);
    expect((await askContracts()).map((c) => c.signals!.matching)).toEqual([undefined, undefined]);
  });
});
