import { marketV1Insights, marketV1InsightsWire, type commonV1 } from '@exchange/proto';
import type {
  ContractRecommendationsJson,
  InsightWindowName,
  PriceIndexJson,
  ReputationJson,
  SellerRecommendationsJson,
  TaskTapeJson,
  VerifierReputationJson,
} from './insights.schemas';
import { contractChecks } from '../../lib/mapper-kit';
import { MarketContractError } from '../../lib/mapper-kit';

// Proto ⇄ REST for the market insights: `INSIGHT_WINDOW_7D` ⇄ `7d` (the table generated from
// insights.proto), Dates ⇄ RFC 3339, int64 strings ⇄ numbers, absent optionals ⇄ null. Pure
// functions, no I/O.

const WINDOW = marketV1InsightsWire.insightWindow;
const { required, enumToJson } = contractChecks((what) => new MarketContractError(what));

/** Default window: all. */
export const insightWindowFromJson = (window: InsightWindowName | undefined): marketV1Insights.InsightWindow => WINDOW.toProto(window ?? 'all');
/** `as_of` query → Date; absent stays absent (the market uses now). */
export const asOfFromJson = (asOf: string | undefined): Date | undefined => (asOf === undefined ? undefined : new Date(asOf));

const iso = (date: Date | undefined, what: string) => required(date, what).toISOString();
const moneyList = (list: commonV1.Money[]) => list.map((m) => ({ amount: m.amount, currency: m.currency }));

export function reputationToJson(reputation: marketV1Insights.Reputation | undefined, includeReceipts: boolean): ReputationJson {
  const r = required(reputation, 'reputation');
  const c = required(r.components, 'reputation components');
  return {
    agent_id: r.agentId,
    score: r.score,
    confidence: r.confidence,
    window_days: r.windowDays,
    as_of: iso(r.asOf, 'reputation as_of'),
    components: {
      settled_as_seller: c.settledAsSeller,
      settled_as_buyer: c.settledAsBuyer,
      verifications_passed: c.verificationsPassed,
      verifications_failed: c.verificationsFailed,
      disputes_won: c.disputesWon,
      disputes_lost: c.disputesLost,
      disputes_split: c.disputesSplit,
      evidence_weight: c.evidenceWeight,
    },
    volume: moneyList(r.volume),
    ...(includeReceipts ? { receipt_ids: [...r.receiptIds] } : {}),
    formula: r.formula,
  };
}

export function verifierReputationToJson(reputation: marketV1Insights.VerifierReputation | undefined): VerifierReputationJson {
  const r = required(reputation, 'verifier reputation');
  let median: number | null = null;
  if (r.medianLatencyMs !== undefined) {
    median = Number(r.medianLatencyMs);
    if (!Number.isSafeInteger(median)) throw new MarketContractError('median_latency_ms');
  }
  return {
    verifier_id: r.verifierId,
    score: r.score,
    confidence: r.confidence,
    window_days: r.windowDays,
    as_of: iso(r.asOf, 'verifier reputation as_of'),
    reports: r.reports,
    passed: r.passed,
    failed: r.failed,
    disputed: r.disputed,
    agreements: r.agreements,
    agreement_rate: r.agreementRate ?? null,
    median_latency_ms: median,
    formula: r.formula,
  };
}

const signalsToJson = (signals: marketV1Insights.RecommendationSignals | undefined) => {
  const s = required(signals, 'recommendation signals');
  return { tag_match: s.tagMatch, reputation: s.reputation, price_fit: s.priceFit, recency: s.recency, matching: s.matching ?? null };
};

export function sellerRecommendationsToJson(res: marketV1Insights.RecommendSellersResponse): SellerRecommendationsJson {
  return {
    data: res.sellers.map((s) => ({
      seller_id: s.sellerId,
      score: s.score,
      rank: s.rank,
      exploration: s.exploration,
      signals: signalsToJson(s.signals),
      listing_id: s.listingId ?? null,
    })),
    exploration_slots: res.explorationSlots,
    request_id: res.requestId,
  };
}

export function contractRecommendationsToJson(res: marketV1Insights.RecommendContractsResponse): ContractRecommendationsJson {
  return {
    data: res.contracts.map((c) => ({ contract_id: c.contractId, score: c.score, rank: c.rank, exploration: c.exploration, signals: signalsToJson(c.signals) })),
    exploration_slots: res.explorationSlots,
    request_id: res.requestId,
  };
}

export function priceIndexToJson(res: marketV1Insights.GetPriceIndexResponse): PriceIndexJson {
  return {
    window: enumToJson(WINDOW, res.window, 'price index window'),
    as_of: iso(res.asOf, 'price index as_of'),
    include_sandbox: res.includeSandbox,
    data: res.entries.map((e) => ({ tag: e.tag, currency: e.currency, count: e.count, median: e.median, p25: e.p25, p75: e.p75, min: e.min, max: e.max })),
  };
}

const figureToJson = (figure: marketV1Insights.TapeFigure | undefined, what: string) => {
  const f = required(figure, what);
  return { count: f.count, volume: moneyList(f.volume) };
};

export function taskTapeToJson(res: marketV1Insights.GetTaskTapeResponse): TaskTapeJson {
  const window = enumToJson(WINDOW, res.window, 'task tape window');
  if (window === '30d') throw new MarketContractError('task tape window');
  return {
    window,
    as_of: iso(res.asOf, 'task tape as_of'),
    include_sandbox: res.includeSandbox,
    opened: figureToJson(res.opened, 'task tape opened'),
    awarded: figureToJson(res.awarded, 'task tape awarded'),
    settled: figureToJson(res.settled, 'task tape settled'),
  };
}
