import { marketV1 } from '@exchange/proto';
import { startProtoFake, type ProtoFake } from '@exchange/testing';
import { deliveryHandlers } from './fake-market-delivery';
import { catalogService, coordinationService, insightsService } from './fake-market-insights';
import { governanceService, integrityService } from './fake-market-integrity';
import { createMarketKit, type Part2State } from './fake-market-kit';
import { tradeHandlers } from './fake-market-trade';

// An in-memory market: `startProtoFake` (a real grpc-js server from the proto definitions) with
// the MarketService and the issue-6 services (integrity, insights, catalog, coordination,
// governance) on one port, as the real market serves them. It stores what it is sent and answers
// with resources built from the requests, replays idempotency keys like the real service and
// answers NOT_FOUND for unknown ids (fake-market-kit.ts). The market's rules (states, parties,
// saga) live in apps/market and its suite; failures here come from failNext.

export interface FakeMarket extends ProtoFake {
  contracts: Map<string, marketV1.Contract>;
  /** State of the issue-6 services (integrity snapshot, audit, threads, reviews). */
  part2: Part2State;
}

export async function startFakeMarket(): Promise<FakeMarket> {
  const kit = createMarketKit();
  const fake = await startProtoFake(
    marketV1.MarketServiceService,
    { ...tradeHandlers(kit), ...deliveryHandlers(kit) },
    { also: [integrityService(kit), insightsService(kit), catalogService(kit), coordinationService(kit), governanceService(kit)] },
  );
  return Object.assign(fake, { contracts: kit.contracts, part2: kit.state });
}
