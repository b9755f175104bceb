import type { Server, UntypedServiceImplementation } from '@grpc/grpc-js';
import { mergeAreaHandlers, serviceArea } from '@exchange/service-host';
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

// The areas of MarketService, one entry each: its service built from the runtime (each takes only
// the fields it declares) and its handlers; merged into one MarketService. Adding an area: its
// slice under src/<area>/ and one entry here (or, for an area with its own gRPC service, one line
// in registerMarket).
export const MARKET_SERVICE_AREAS = [
  serviceArea('listings', (rt: MarketRuntime) => listingsHandlers(new ListingsService(rt), rt)),
  serviceArea('contracts', (rt: MarketRuntime) => contractsHandlers(new ContractsService(rt), rt)),
  serviceArea('offers', (rt: MarketRuntime) => offersHandlers(new OffersService(rt), rt)),
  serviceArea('results', (rt: MarketRuntime) => resultsHandlers(new ResultsService(rt), rt)),
  serviceArea('verification', (rt: MarketRuntime) => verificationHandlers(new VerificationService(rt), rt)),
  serviceArea('disputes', (rt: MarketRuntime) => disputesHandlers(new DisputesService(rt), rt)),
] as const;

const untyped = (handlers: object) => handlers as UntypedServiceImplementation;

/**
 * Adds every market gRPC service to the server libs/service-host starts (health is already there).
 * Each handler set is typed as its generated server, so an RPC without a handler does not compile.
 */
export function registerMarket(server: Server, rt: MarketRuntime): void {
  const market: marketV1.MarketServiceServer = mergeAreaHandlers(MARKET_SERVICE_AREAS, rt, rt.logger);
  const integrity: marketV1Integrity.MarketIntegrityServiceServer = integrityHandlers(new IntegrityService(rt), rt);
  const insights: marketV1Insights.MarketInsightsServiceServer = insightsHandlers(new InsightsService(rt, rt.matching), rt);
  const catalog: marketV1Catalog.MarketCatalogServiceServer = catalogHandlers(new CatalogService(rt.pool), rt);
  const coordination: marketV1Coordination.CoordinationServiceServer = coordinationHandlers(new CoordinationService(rt), rt);
  const governance: marketV1Governance.ContractGovernanceServiceServer = governanceHandlers(new GovernanceService(rt), rt);
  server.addService(marketV1.MarketServiceService, untyped(market));
  server.addService(marketV1Integrity.MarketIntegrityServiceService, untyped(integrity));
  server.addService(marketV1Insights.MarketInsightsServiceService, untyped(insights));
  server.addService(marketV1Catalog.MarketCatalogServiceService, untyped(catalog));
  server.addService(marketV1Coordination.CoordinationServiceService, untyped(coordination));
  server.addService(marketV1Governance.ContractGovernanceServiceService, untyped(governance));
}
