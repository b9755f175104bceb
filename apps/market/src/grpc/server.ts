import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { startGrpcServer, type GrpcServerHandle } from '@exchange/platform';
import { marketV1, marketV1Catalog, marketV1Coordination, marketV1Governance, marketV1Insights, marketV1Integrity } from '@exchange/proto';
import { catalogHandlers } from '../catalog/catalog.handlers';
import { CatalogService } from '../catalog/catalog.service';
import { contractsHandlers } from '../contracts/contracts.handlers';
import { ContractsService } from '../contracts/contracts.service';
import { coordinationHandlers } from '../coordination/coordination.handlers';
import { CoordinationService } from '../coordination/coordination.service';
import { disputesHandlers } from '../disputes/disputes.handlers';
import { DisputesService } from '../disputes/disputes.service';
import { governanceHandlers } from '../governance/governance.handlers';
import { GovernanceService } from '../governance/governance.service';
import { insightsHandlers } from '../insights/insights.handlers';
import { InsightsService } from '../insights/insights.service';
import { integrityHandlers } from '../integrity/integrity.handlers';
import { IntegrityService } from '../integrity/integrity.service';
import { listingsHandlers } from '../listings/listings.handlers';
import { ListingsService } from '../listings/listings.service';
import { offersHandlers } from '../offers/offers.handlers';
import { OffersService } from '../offers/offers.service';
import { resultsHandlers } from '../results/results.handlers';
import { ResultsService } from '../results/results.service';
import type { MarketRuntime } from '../service/runtime';
import { verificationHandlers } from '../verification/verification.handlers';
import { VerificationService } from '../verification/verification.service';

export const MARKET_SERVICE_NAME = 'exchange.market.v1.MarketService';

/** One spec area: the gRPC service it implements (several areas share MarketService) and its handlers. */
function area<S extends ServiceDefinition, H extends object>(name: string, service: S, handlers: (rt: MarketRuntime) => H) {
  return { name, service, handlers };
}

// Every area of the market, one entry each: its service built from the runtime (each takes only
// the fields it declares) and its handlers. Services are registered in first-appearance order;
// the areas of one service are merged. Adding an area: its slice under src/<area>/ and one entry.
export const AREAS = [
  area('listings', marketV1.MarketServiceService, (rt) => listingsHandlers(new ListingsService(rt), rt)),
  area('contracts', marketV1.MarketServiceService, (rt) => contractsHandlers(new ContractsService(rt), rt)),
  area('offers', marketV1.MarketServiceService, (rt) => offersHandlers(new OffersService(rt), rt)),
  area('results', marketV1.MarketServiceService, (rt) => resultsHandlers(new ResultsService(rt), rt)),
  area('verification', marketV1.MarketServiceService, (rt) => verificationHandlers(new VerificationService(rt), rt)),
  area('disputes', marketV1.MarketServiceService, (rt) => disputesHandlers(new DisputesService(rt), rt)),
  area('integrity', marketV1Integrity.MarketIntegrityServiceService, (rt) => integrityHandlers(new IntegrityService(rt), rt)),
  area('insights', marketV1Insights.MarketInsightsServiceService, (rt) => insightsHandlers(new InsightsService(rt), rt)),
  area('catalog', marketV1Catalog.MarketCatalogServiceService, (rt) => catalogHandlers(new CatalogService(rt.pool), rt)),
  area('coordination', marketV1Coordination.CoordinationServiceService, (rt) => coordinationHandlers(new CoordinationService(rt), rt)),
  area('governance', marketV1Governance.ContractGovernanceServiceService, (rt) => governanceHandlers(new GovernanceService(rt), rt)),
] as const;

// Compile-time check: the areas of each service together implement all of its RPCs (grpc-js
// would answer a missing one UNIMPLEMENTED).
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type HandlersOf<S> = UnionToIntersection<ReturnType<Extract<(typeof AREAS)[number], { service: S }>['handlers']>>;
type Implements<S, Server> = HandlersOf<S> extends Server ? true : false;
type Assert<T extends true> = T;
export type _AllRpcsImplemented = Assert<
  | Implements<typeof marketV1.MarketServiceService, marketV1.MarketServiceServer>
  | Implements<typeof marketV1Integrity.MarketIntegrityServiceService, marketV1Integrity.MarketIntegrityServiceServer>
  | Implements<typeof marketV1Insights.MarketInsightsServiceService, marketV1Insights.MarketInsightsServiceServer>
  | Implements<typeof marketV1Catalog.MarketCatalogServiceService, marketV1Catalog.MarketCatalogServiceServer>
  | Implements<typeof marketV1Coordination.CoordinationServiceService, marketV1Coordination.CoordinationServiceServer>
  | Implements<typeof marketV1Governance.ContractGovernanceServiceService, marketV1Governance.ContractGovernanceServiceServer>
>;

/** Binds the market gRPC server with every area of AREAS; health starts NOT_SERVING until the caller flips it. */
export function startMarketGrpcServer(opts: { runtime: MarketRuntime; host: string; port: number }): Promise<GrpcServerHandle> {
  const services = new Map<ServiceDefinition, object>();
  for (const a of AREAS) services.set(a.service, { ...services.get(a.service), ...a.handlers(opts.runtime) });
  return startGrpcServer({
    name: MARKET_SERVICE_NAME,
    host: opts.host,
    port: opts.port,
    logger: opts.runtime.logger,
    register: (server) => {
      for (const [service, handlers] of services) server.addService(service, handlers as UntypedServiceImplementation);
    },
  });
}
