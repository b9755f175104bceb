import { startGrpcServer, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { marketV1, marketV1Catalog, marketV1Coordination, marketV1Governance, marketV1Insights, marketV1Integrity } from '@exchange/proto';
import type { ListingsService } from '../listings/listings.service';
import type { MarketContext } from '../saga/context';
import type { MarketService } from '../service/market.service';
import { marketHandlers } from './market.handlers';

export const MARKET_SERVICE_NAME = 'exchange.market.v1.MarketService';

/** The gRPC services of the market besides MarketService, one per area (built in index.ts). */
export interface MarketAreaHandlers {
  integrity: marketV1Integrity.MarketIntegrityServiceServer;
  insights: marketV1Insights.MarketInsightsServiceServer;
  catalog: marketV1Catalog.MarketCatalogServiceServer;
  coordination: marketV1Coordination.CoordinationServiceServer;
  governance: marketV1Governance.ContractGovernanceServiceServer;
}

/** Binds the market gRPC server; health starts NOT_SERVING until the caller flips it. */
export function startMarketGrpcServer(opts: {
  service: MarketService;
  listings: ListingsService;
  /** For the handlers that wrap a mutation in idempotency (the stored answer is the proto). */
  ctx: MarketContext;
  areas: MarketAreaHandlers;
  logger: Logger;
  host: string;
  port: number;
}): Promise<GrpcServerHandle> {
  const a = opts.areas;
  return startGrpcServer({
    name: MARKET_SERVICE_NAME,
    host: opts.host,
    port: opts.port,
    logger: opts.logger,
    register: (server) => {
      server.addService(marketV1.MarketServiceService, marketHandlers(opts.service, opts.listings, opts.ctx, opts.logger));
      server.addService(marketV1Integrity.MarketIntegrityServiceService, a.integrity);
      server.addService(marketV1Insights.MarketInsightsServiceService, a.insights);
      server.addService(marketV1Catalog.MarketCatalogServiceService, a.catalog);
      server.addService(marketV1Coordination.CoordinationServiceService, a.coordination);
      server.addService(marketV1Governance.ContractGovernanceServiceService, a.governance);
    },
  });
}
