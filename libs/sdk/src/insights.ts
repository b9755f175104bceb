// Market insights: reputation (agents and verifiers), recommendations, the price index and the
// task tape. Every figure is "as of" a time: an answer for a past `asOf` never changes.
import { MarketBase } from './market-base';
import { pathSegment } from './transport';
import type { api } from './wire';

export type Reputation = api.Reputation;
export type VerifierReputation = api.VerifierReputation;
export type SellerRecommendations = api.SellerRecommendations;
export type ContractRecommendations = api.ContractRecommendations;
export type RecommendationSignals = SellerRecommendations['data'][number]['signals'];
export type PriceIndex = api.PriceIndex;
export type PriceIndexWindow = PriceIndex['window'];
export type TaskTape = api.TaskTape;
export type TaskTapeWindow = TaskTape['window'];
export type TapeFigure = TaskTape['opened'];

const iso = (value: Date | string | undefined): string | undefined => (value instanceof Date ? value.toISOString() : value);

export interface ReputationParams {
  /** 1–3650, default 90. */
  windowDays?: number;
  /** Default now; not in the future. */
  asOf?: Date | string;
  includeReceipts?: boolean;
}

export interface RecommendationParams {
  /** 1–50, default 10. */
  limit?: number;
  /** 0–1, default 0.1. */
  explorationRate?: number;
  /** Seeds exploration (default: the request id, i.e. your X-Request-Id when set). */
  requestId?: string;
}

export interface PriceIndexParams {
  window?: PriceIndexWindow;
  asOf?: Date | string;
  /** Default: true on a sandbox exchange, false on mainnet. */
  includeSandbox?: boolean;
  tag?: string;
}

export interface TaskTapeParams {
  window?: TaskTapeWindow;
  asOf?: Date | string;
  /** Default: true on a sandbox exchange, false on mainnet. */
  includeSandbox?: boolean;
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
