import { createServiceClient, type PromiseClient } from '@exchange/platform';
import {
  identityV1,
  marketV1,
  marketV1Catalog,
  marketV1Coordination,
  marketV1Governance,
  marketV1Insights,
  marketV1Integrity,
  walletV1,
} from '@exchange/proto';
import type { ServiceDefinition } from '@grpc/grpc-js';
import fp from 'fastify-plugin';
import { service as healthService } from 'grpc-health-check';
import { createRegistryClient, type RegistryClient } from './registry-client';

// One client — one HTTP/2 channel — per backing service, created once at start and shared by
// every request. The grpc.health.v1 Check method rides on the same channel (same server).

export type HealthStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN';

interface HealthMethods {
  healthCheck: { path: string; requestStream: false; responseStream: false; requestSerialize: (v: { service: string }) => Buffer; responseDeserialize: (b: Buffer) => { status: string } };
}

const healthCheckMethod = (healthService as unknown as { Check: HealthMethods['healthCheck'] }).Check;

const IdentityDefinition = { ...identityV1.IdentityServiceService, healthCheck: healthCheckMethod };
export type IdentityClient = PromiseClient<typeof IdentityDefinition>;

const WalletLedgerDefinition = { ...walletV1.WalletLedgerServiceService, healthCheck: healthCheckMethod };
export type WalletLedgerClient = PromiseClient<typeof WalletLedgerDefinition>;

const MarketDefinition = { ...marketV1.MarketServiceService, healthCheck: healthCheckMethod };
export type MarketClient = PromiseClient<typeof MarketDefinition>;

// The market's other services (issue 6) listen on the market's address too.
export type IntegrityClient = PromiseClient<typeof marketV1Integrity.MarketIntegrityServiceService>;
export type InsightsClient = PromiseClient<typeof marketV1Insights.MarketInsightsServiceService>;
export type CatalogClient = PromiseClient<typeof marketV1Catalog.MarketCatalogServiceService>;
export type CoordinationClient = PromiseClient<typeof marketV1Coordination.CoordinationServiceService>;
export type GovernanceClient = PromiseClient<typeof marketV1Governance.ContractGovernanceServiceService>;

export interface BackingService {
  name: string;
  address: string;
  check(opts: { deadlineMs: number; requestId: string }): Promise<HealthStatus>;
}

export interface GrpcClientsOptions {
  identityAddress: string;
  walletLedgerAddress: string;
  marketAddress: string;
  registryAddress: string;
  defaultDeadlineMs?: number;
}

function backingService(name: string, address: string, client: { healthCheck: (req: { service: string }, opts: { deadlineMs: number; requestId: string }) => Promise<{ status: string }> }): BackingService {
  return {
    name,
    address,
    async check(opts) {
      try {
        const res = await client.healthCheck({ service: '' }, opts);
        return res.status === 'SERVING' ? 'SERVING' : res.status === 'NOT_SERVING' ? 'NOT_SERVING' : 'UNKNOWN';
      } catch {
        return 'UNKNOWN'; // unreachable or no answer within the deadline
      }
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityClient;
    walletLedger: WalletLedgerClient;
    market: MarketClient;
    /** Market integrity: state, kill switches, erroneous clear, audit. */
    integrity: IntegrityClient;
    /** Market insights: reputation, recommendations, price index, task tape. */
    insights: InsightsClient;
    /** Market catalog: templates and fixtures. */
    catalog: CatalogClient;
    coordination: CoordinationClient;
    /** Operator decisions on contracts: buyer alias, resale reviews. */
    governance: GovernanceClient;
    /** Registry: objects, artifacts (streamed), attestations, casefiles. */
    registry: RegistryClient;
    /** Every backing service, for /health. */
    backingServices: BackingService[];
  }
}

export default fp<GrpcClientsOptions>(
  async (fastify, opts) => {
    const identity = createServiceClient(IdentityDefinition as unknown as ServiceDefinition & typeof IdentityDefinition, opts.identityAddress, {
      defaultDeadlineMs: opts.defaultDeadlineMs,
    });
    const walletLedger = createServiceClient(
      WalletLedgerDefinition as unknown as ServiceDefinition & typeof WalletLedgerDefinition,
      opts.walletLedgerAddress,
      { defaultDeadlineMs: opts.defaultDeadlineMs },
    );
    const market = createServiceClient(MarketDefinition as unknown as ServiceDefinition & typeof MarketDefinition, opts.marketAddress, {
      defaultDeadlineMs: opts.defaultDeadlineMs,
    });
    const marketService = <D extends object>(definition: D) =>
      createServiceClient(definition as unknown as ServiceDefinition & D, opts.marketAddress, { defaultDeadlineMs: opts.defaultDeadlineMs });
    const marketParts = {
      integrity: marketService(marketV1Integrity.MarketIntegrityServiceService),
      insights: marketService(marketV1Insights.MarketInsightsServiceService),
      catalog: marketService(marketV1Catalog.MarketCatalogServiceService),
      coordination: marketService(marketV1Coordination.CoordinationServiceService),
      governance: marketService(marketV1Governance.ContractGovernanceServiceService),
    };
    const registry = createRegistryClient(opts.registryAddress, { defaultDeadlineMs: opts.defaultDeadlineMs, healthCheck: healthCheckMethod });
    fastify.decorate('identity', identity);
    fastify.decorate('registry', registry);
    fastify.decorate('walletLedger', walletLedger);
    fastify.decorate('market', market);
    fastify.decorate('integrity', marketParts.integrity);
    fastify.decorate('insights', marketParts.insights);
    fastify.decorate('catalog', marketParts.catalog);
    fastify.decorate('coordination', marketParts.coordination);
    fastify.decorate('governance', marketParts.governance);
    fastify.decorate('backingServices', [
      backingService('identity', opts.identityAddress, identity),
      backingService('wallet-ledger', opts.walletLedgerAddress, walletLedger),
      backingService('market', opts.marketAddress, market),
      backingService('registry', opts.registryAddress, registry),
    ]);
    fastify.addHook('onClose', async () => {
      identity.close();
      walletLedger.close();
      market.close();
      registry.close();
      for (const client of Object.values(marketParts)) client.close();
    });
  },
  { name: 'grpc-clients' },
);
