import { marketV1Insights } from '@exchange/proto';
import { MarketContractError } from '../../lib/mapper-kit';
import {
  asOfFromJson,
  contractRecommendationsToJson,
  insightWindowFromJson,
  priceIndexToJson,
  reputationToJson,
  sellerRecommendationsToJson,
  taskTapeToJson,
  verifierReputationToJson,
} from './insights.mapper';

const W = marketV1Insights.InsightWindow;
const T = new Date('2026-11-21T18:00:00.000Z');

const reputation = (over: Partial<marketV1Insights.Reputation> = {}): marketV1Insights.Reputation => ({
  agentId: 'a:agent:s',
  score: 0.7,
  confidence: 0.4,
  windowDays: 30,
  asOf: T,
  components: {
    settledAsSeller: 2,
    settledAsBuyer: 0,
    verificationsPassed: 2,
    verificationsFailed: 0,
    disputesWon: 0,
    disputesLost: 0,
    disputesSplit: 1,
    evidenceWeight: 2.5,
  },
  receiptIds: ['rcpt_1'],
  volume: [{ amount: '12.5', currency: 'CREDIT' }],
  formula: 'rep-v1',
  ...over,
});

describe('reputationToJson', () => {
  it('should map every figure and list receipts only when asked', () => {
    const json = reputationToJson(reputation(), true);
    expect(json).toEqual({
      agent_id: 'a:agent:s',
      score: 0.7,
      confidence: 0.4,
      window_days: 30,
      as_of: T.toISOString(),
      components: {
        settled_as_seller: 2,
        settled_as_buyer: 0,
        verifications_passed: 2,
        verifications_failed: 0,
        disputes_won: 0,
        disputes_lost: 0,
        disputes_split: 1,
        evidence_weight: 2.5,
      },
      volume: [{ amount: '12.5', currency: 'CREDIT' }],
      receipt_ids: ['rcpt_1'],
      formula: 'rep-v1',
    });
    expect(reputationToJson(reputation(), false)).not.toHaveProperty('receipt_ids');
  });

  it('should refuse a reputation without components or as_of', () => {
    expect(() => reputationToJson(reputation({ components: undefined }), false)).toThrow(MarketContractError);
    expect(() => reputationToJson(reputation({ asOf: undefined }), false)).toThrow(MarketContractError);
  });
});

describe('verifierReputationToJson', () => {
  const base: marketV1Insights.VerifierReputation = {
    verifierId: 'a:agent:v',
    score: 0.5,
    confidence: 0,
    windowDays: 90,
    asOf: T,
    reports: 0,
    passed: 0,
    failed: 0,
    disputed: 0,
    agreements: 0,
    formula: 'vrep-v1',
  };

  it('should give null rate and latency when absent, and numbers when present', () => {
    expect(verifierReputationToJson(base)).toMatchObject({ agreement_rate: null, median_latency_ms: null });
    expect(verifierReputationToJson({ ...base, agreementRate: 0.5, medianLatencyMs: '1200' })).toMatchObject({ agreement_rate: 0.5, median_latency_ms: 1200 });
  });
});

describe('recommendations', () => {
  const signals = { tagMatch: 1, reputation: 0.5, priceFit: 0.25, recency: 0 };

  it('should map sellers with null matching and listing when absent', () => {
    expect(
      sellerRecommendationsToJson({ sellers: [{ sellerId: 's', score: 0.5, rank: 1, exploration: true, signals }], explorationSlots: 1, requestId: 'r1' }),
    ).toEqual({
      data: [{ seller_id: 's', score: 0.5, rank: 1, exploration: true, signals: { tag_match: 1, reputation: 0.5, price_fit: 0.25, recency: 0, matching: null }, listing_id: null }],
      exploration_slots: 1,
      request_id: 'r1',
    });
  });

  it('should map contracts and refuse a candidate without signals', () => {
    expect(
      contractRecommendationsToJson({ contracts: [{ contractId: 'c', score: 1, rank: 1, exploration: false, signals: { ...signals, matching: 0.2 } }], explorationSlots: 0, requestId: 'r' }).data[0],
    ).toMatchObject({ contract_id: 'c', signals: { matching: 0.2 } });
    expect(() =>
      contractRecommendationsToJson({ contracts: [{ contractId: 'c', score: 1, rank: 1, exploration: false, signals: undefined }], explorationSlots: 0, requestId: 'r' }),
    ).toThrow(MarketContractError);
  });
});

describe('windows', () => {
  it('should default to all and map each name', () => {
    expect(insightWindowFromJson(undefined)).toBe(W.INSIGHT_WINDOW_ALL);
    expect(insightWindowFromJson('30d')).toBe(W.INSIGHT_WINDOW_30D);
    expect(asOfFromJson(undefined)).toBeUndefined();
    expect(asOfFromJson(T.toISOString())).toEqual(T);
  });
});

describe('priceIndexToJson and taskTapeToJson', () => {
  it('should map the price index entries', () => {
    expect(
      priceIndexToJson({
        entries: [{ tag: 'nlp', currency: 'CREDIT', count: 2, median: '15', p25: '10', p75: '20', min: '10', max: '20' }],
        window: W.INSIGHT_WINDOW_7D,
        asOf: T,
        includeSandbox: false,
      }),
    ).toEqual({
      window: '7d',
      as_of: T.toISOString(),
      include_sandbox: false,
      data: [{ tag: 'nlp', currency: 'CREDIT', count: 2, median: '15', p25: '10', p75: '20', min: '10', max: '20' }],
    });
  });

  it('should map the tape figures and refuse a window the tape does not have', () => {
    const fig = { count: 1, volume: [{ amount: '5', currency: 'CREDIT' }] };
    const res = { window: W.INSIGHT_WINDOW_1D, asOf: T, opened: fig, awarded: fig, settled: { count: 0, volume: [] }, includeSandbox: true };
    expect(taskTapeToJson(res)).toEqual({
      window: '1d',
      as_of: T.toISOString(),
      include_sandbox: true,
      opened: { count: 1, volume: [{ amount: '5', currency: 'CREDIT' }] },
      awarded: { count: 1, volume: [{ amount: '5', currency: 'CREDIT' }] },
      settled: { count: 0, volume: [] },
    });
    expect(() => taskTapeToJson({ ...res, window: W.INSIGHT_WINDOW_30D })).toThrow(MarketContractError);
    expect(() => taskTapeToJson({ ...res, opened: undefined })).toThrow(MarketContractError);
  });
});
