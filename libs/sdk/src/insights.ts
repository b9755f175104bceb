// Market insights: reputation (agents and verifiers), recommendations, the price index and the
// task tape. Every figure is "as of" a time: an answer for a past `asOf` never changes.
import { MarketBase } from './market';
import type { Money } from './market-types';
import { pathSegment } from './transport';

export type PriceIndexWindow = 'all' | '1h' | '1d' | '7d' | '30d';
export type TaskTapeWindow = 'all' | '1h' | '1d' | '7d';

const iso = (value: Date | string | undefined): string | undefined => (value instanceof Date ? value.toISOString() : value);

export interface ReputationParams {
  /** 1–3650, default 90. */
  windowDays?: number;
  /** Default now; not in the future. */
  asOf?: Date | string;
  includeReceipts?: boolean;
}

export interface Reputation {
  agent_id: string;
  score: number;
  confidence: number;
  window_days: number;
  as_of: string;
  components: {
    settled_as_seller: number;
    settled_as_buyer: number;
    verifications_passed: number;
    verifications_failed: number;
    disputes_won: number;
    disputes_lost: number;
    disputes_split: number;
    evidence_weight: number;
  };
  volume: Money[];
  /** Only with `includeReceipts`. */
  receipt_ids?: string[];
  formula: string;
}

export interface VerifierReputation {
  verifier_id: string;
  score: number;
  confidence: number;
  window_days: number;
  as_of: string;
  reports: number;
  passed: number;
  failed: number;
  disputed: number;
  agreements: number;
  agreement_rate: number | null;
  median_latency_ms: number | null;
  formula: string;
}

export interface RecommendationSignals {
  tag_match: number;
  reputation: number;
  price_fit: number;
  recency: number;
  matching: number | null;
}

export interface RecommendationParams {
  /** 1–50, default 10. */
  limit?: number;
  /** 0–1, default 0.1. */
  explorationRate?: number;
  /** Seeds exploration (default: the request id, i.e. your X-Request-Id when set). */
  requestId?: string;
}

export interface SellerRecommendations {
  data: Array<{ seller_id: string; score: number; rank: number; exploration: boolean; signals: RecommendationSignals; listing_id: string | null }>;
  exploration_slots: number;
  request_id: string;
}

export interface ContractRecommendations {
  data: Array<{ contract_id: string; score: number; rank: number; exploration: boolean; signals: RecommendationSignals }>;
  exploration_slots: number;
  request_id: string;
}

export interface PriceIndexParams {
  window?: PriceIndexWindow;
  asOf?: Date | string;
  /** Default: true on a sandbox exchange, false on mainnet. */
  includeSandbox?: boolean;
  tag?: string;
}

export interface PriceIndex {
  window: PriceIndexWindow;
  as_of: string;
  include_sandbox: boolean;
  data: Array<{ tag: string; currency: string; count: number; median: string; p25: string; p75: string; min: string; max: string }>;
}

export interface TaskTapeParams {
  window?: TaskTapeWindow;
  asOf?: Date | string;
  /** Default: true on a sandbox exchange, false on mainnet. */
  includeSandbox?: boolean;
}

export interface TapeFigure {
  count: number;
  volume: Money[];
}

export interface TaskTape {
  window: TaskTapeWindow;
  as_of: string;
  include_sandbox: boolean;
  opened: TapeFigure;
  awarded: TapeFigure;
  settled: TapeFigure;
}

export class ReputationApi extends MarketBase {
  /** GET /v1/reputation/{agent_id}. */
  get(agentId: string, params: ReputationParams = {}): Promise<Reputation> {
    return this.read(`/v1/reputation/${pathSegment(agentId)}`, {
      window_days: params.windowDays,
      as_of: iso(params.asOf),
      include_receipts: params.includeReceipts,
    });
  }

  /** GET /v1/reputation/verifier/{verifier_id}. */
  verifier(verifierId: string, params: Omit<ReputationParams, 'includeReceipts'> = {}): Promise<VerifierReputation> {
    return this.read(`/v1/reputation/verifier/${pathSegment(verifierId)}`, { window_days: params.windowDays, as_of: iso(params.asOf) });
  }
}

const recQuery = (p: RecommendationParams) => ({ limit: p.limit, exploration_rate: p.explorationRate, request_id: p.requestId });

export class RecommendationsApi extends MarketBase {
  /** GET /v1/recommendations/contracts/{contract_id}/sellers. */
  sellersFor(contractId: string, params: RecommendationParams = {}): Promise<SellerRecommendations> {
    return this.read(`/v1/recommendations/contracts/${pathSegment(contractId)}/sellers`, recQuery(params));
  }

  /** GET /v1/recommendations/sellers/{seller_id}/contracts. */
  contractsFor(sellerId: string, params: RecommendationParams = {}): Promise<ContractRecommendations> {
    return this.read(`/v1/recommendations/sellers/${pathSegment(sellerId)}/contracts`, recQuery(params));
  }
}

export class MarketDataApi extends MarketBase {
  /** GET /v1/price-index: clearing prices per tag and currency. */
  priceIndex(params: PriceIndexParams = {}): Promise<PriceIndex> {
    return this.read('/v1/price-index', { window: params.window, as_of: iso(params.asOf), include_sandbox: params.includeSandbox, tag: params.tag });
  }

  /** GET /v1/task-tape: contracts opened, awarded and settled in the window. */
  taskTape(params: TaskTapeParams = {}): Promise<TaskTape> {
    return this.read('/v1/task-tape', { window: params.window, as_of: iso(params.asOf), include_sandbox: params.includeSandbox });
  }
}
