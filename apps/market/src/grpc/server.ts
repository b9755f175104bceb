import { startGrpcServer, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import type { MarketService } from '../service/market.service';
import { marketHandlers } from './market.handlers';

export const MARKET_SERVICE_NAME = 'exchange.market.v1.MarketService';

/** Binds the market gRPC server; health starts NOT_SERVING until the caller flips it. */
export function startMarketGrpcServer(opts: { service: MarketService; logger: Logger; host: string; port: number }): Promise<GrpcServerHandle> {
  return startGrpcServer({
    name: MARKET_SERVICE_NAME,
    host: opts.host,
    port: opts.port,
    logger: opts.logger,
    register: (server) => server.addService(marketV1.MarketServiceService, marketHandlers(opts.service, opts.logger)),
  });
}
