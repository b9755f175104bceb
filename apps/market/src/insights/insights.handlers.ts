import { unary } from '@exchange/platform';
import type { marketV1Insights } from '@exchange/proto';
import type { MarketRuntime } from '../service/runtime';
import { insightWindow, resolveWindow } from './insights.mapper';
import type { InsightsService } from './insights.service';

/** proto in, proto out; recommendations fall back to the gateway's request id to seed exploration. */
export function insightsHandlers(s: InsightsService, deps: Pick<MarketRuntime, 'logger'>): marketV1Insights.MarketInsightsServiceServer {
  const logger = deps.logger;
  return {
    getReputation: unary(logger, 'GetReputation', (req: marketV1Insights.GetReputationRequest) => s.getReputation(req)),
    getVerifierReputation: unary(logger, 'GetVerifierReputation', (req: marketV1Insights.GetVerifierReputationRequest) => s.getVerifierReputation(req)),
    recommendSellers: unary(logger, 'RecommendSellers', (req: marketV1Insights.RecommendSellersRequest, ctx) => s.recommendSellers(req, ctx.requestId)),
    recommendContracts: unary(logger, 'RecommendContracts', (req: marketV1Insights.RecommendContractsRequest, ctx) =>
      s.recommendContracts(req, ctx.requestId),
    ),
    getPriceIndex: unary(logger, 'GetPriceIndex', async (req: marketV1Insights.GetPriceIndexRequest) => {
      const res = await s.getPriceIndex({ ...req, window: resolveWindow(req.window, ['all', '1h', '1d', '7d', '30d']) });
      return { ...res, window: insightWindow.toProto(res.window) };
    }),
    getTaskTape: unary(logger, 'GetTaskTape', async (req: marketV1Insights.GetTaskTapeRequest) => {
      const res = await s.getTaskTape({ ...req, window: resolveWindow(req.window, ['all', '1h', '1d', '7d']) });
      return { ...res, window: insightWindow.toProto(res.window) };
    }),
  };
}
