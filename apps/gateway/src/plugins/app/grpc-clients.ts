import { createServiceClient, type PromiseClient } from '@exchange/platform';
import {
  commerceV1,
  identityV1,
  marketV1,
  marketV1Catalog,
  marketV1Coordination,
  marketV1Governance,
  marketV1Insights,
  marketV1Integrity,
  walletV1,
  workflowsV1,
} from '@exchange/proto';
import type { ServiceDefinition } from '@grpc/grpc-js';
import fp from 'fastify-plugin';
import { service as healthService } from 'grpc-health-check';
import { createRegistryClient } from './registry-client';
import { createTelemetryClient } from './telemetry-client';

// One client — one HTTP/2 channel — per backing service, created once at start and shared by
// every request. The grpc.health.v1 Check method rides on the same channel (same server).

export type HealthStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN';

interface HealthMethods {
  healthCheck: { path: string; requestStream: false; responseStream: false; requestSerialize: (v: { service: string }) => Buffer; responseDeserialize: (b: Buffer) => { status: string } };
}

const healthCheckMethod = (healthService as unknown as { Check: HealthMethods['healthCheck'] }).Check;

const withHealth = <D extends object>(definition: D) => ({ ...definition, healthCheck: healthCheckMethod });

/** A client over one proto service definition, on its service's channel address. */
const unary =
  <D extends object>(definition: D) =>
  (address: string, defaultDeadlineMs: number | undefined): PromiseClient<D> =>
    // The cast only satisfies grpc-js's index signature; the client is typed by D's methods.
    createServiceClient(definition as unknown as ServiceDefinition & D, address, { defaultDeadlineMs }) as PromiseClient<D>;

/** The gateway config keys holding a backing service's address. */
type AddressKey = 'IDENTITY_GRPC_URL' | 'WALLET_LEDGER_GRPC_URL' | 'MARKET_GRPC_URL' | 'REGISTRY_GRPC_URL' | 'COMMERCE_GRPC_URL' | 'WORKFLOWS_GRPC_URL' | 'TELEMETRY_GRPC_URL';

interface ClientEntry {
  /** The backing service's name (as /health reports it). */
  service: string;
  address: AddressKey;
  create(address: string, defaultDeadlineMs: number | undefined): { close(): void };
  /** Checked by /health (one client per backing service carries the grpc.health.v1 Check). */
  health?: true;
}

/**
 * Every gRPC client, one entry each: the key is its Fastify decorator (`fastify.identity`, …).
 * Adding a client is one entry here. /health checks the `health` entries in this order.
 */
export const GRPC_CLIENTS = {
  identity: { service: 'identity', address: 'IDENTITY_GRPC_URL', create: unary(withHealth(identityV1.IdentityServiceService)), health: true },
  walletLedger: { service: 'wallet-ledger', address: 'WALLET_LEDGER_GRPC_URL', create: unary(withHealth(walletV1.WalletLedgerServiceService)), health: true },
  market: { service: 'market', address: 'MARKET_GRPC_URL', create: unary(withHealth(marketV1.MarketServiceService)), health: true },
  // The market's other services (issue 6) listen on the market's address too.
  /** Market integrity: state, kill switches, erroneous clear, audit. */
  integrity: { service: 'market', address: 'MARKET_GRPC_URL', create: unary(marketV1Integrity.MarketIntegrityServiceService) },
  /** Market insights: reputation, recommendations, price index, task tape. */
  insights: { service: 'market', address: 'MARKET_GRPC_URL', create: unary(marketV1Insights.MarketInsightsServiceService) },
  /** Market catalog: templates and fixtures. */
  catalog: { service: 'market', address: 'MARKET_GRPC_URL', create: unary(marketV1Catalog.MarketCatalogServiceService) },
  coordination: { service: 'market', address: 'MARKET_GRPC_URL', create: unary(marketV1Coordination.CoordinationServiceService) },
  /** Operator decisions on contracts: buyer alias, resale reviews. */
  governance: { service: 'market', address: 'MARKET_GRPC_URL', create: unary(marketV1Governance.ContractGovernanceServiceService) },
  /** Registry: objects, artifacts (streamed), attestations, casefiles. */
  registry: {
    service: 'registry',
    address: 'REGISTRY_GRPC_URL',
    create: (address: string, defaultDeadlineMs: number | undefined) => createRegistryClient(address, { defaultDeadlineMs, healthCheck: healthCheckMethod }),
    health: true,
  },
  /** Commerce (UCP platform): merchant profiles, negotiation, checkouts, evidence, mandates, webhooks. */
  commerce: { service: 'commerce', address: 'COMMERCE_GRPC_URL', create: unary(withHealth(commerceV1.CommerceServiceService)), health: true },
  /** Workflows: multi-stage runs, tasks, task event subscriptions. */
  workflows: { service: 'workflows', address: 'WORKFLOWS_GRPC_URL', create: unary(withHealth(workflowsV1.WorkflowsServiceService)), health: true },
  /** Telemetry: event feeds, JSONL exports (streamed), timelines, categories, signals, reports, rollups, outcomes. */
  telemetry: {
    service: 'telemetry',
    address: 'TELEMETRY_GRPC_URL',
    create: (address: string, defaultDeadlineMs: number | undefined) => createTelemetryClient(address, { defaultDeadlineMs, healthCheck: healthCheckMethod }),
    health: true,
  },
} satisfies Record<string, ClientEntry>;

type ClientName = keyof typeof GRPC_CLIENTS;
export type GrpcClients = { [K in ClientName]: ReturnType<(typeof GRPC_CLIENTS)[K]['create']> };

export type IdentityClient = GrpcClients['identity'];
export type WalletLedgerClient = GrpcClients['walletLedger'];
export type MarketClient = GrpcClients['market'];
export type IntegrityClient = GrpcClients['integrity'];
export type InsightsClient = GrpcClients['insights'];
export type CatalogClient = GrpcClients['catalog'];
export type CoordinationClient = GrpcClients['coordination'];
export type GovernanceClient = GrpcClients['governance'];
export type CommerceClient = GrpcClients['commerce'];
export type WorkflowsClient = GrpcClients['workflows'];
export type TelemetryClient = GrpcClients['telemetry'];

export interface BackingService {
  name: string;
  address: string;
  check(opts: { deadlineMs: number; requestId: string }): Promise<HealthStatus>;
}

export interface GrpcClientsOptions {
  addresses: Record<AddressKey, string>;
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
  // One decorator per GRPC_CLIENTS entry.
  interface FastifyInstance extends GrpcClients {
    /** Every backing service, for /health. */
    backingServices: BackingService[];
  }
}

export default fp<GrpcClientsOptions>(
  async (fastify, opts) => {
    const clients: Array<{ close(): void }> = [];
    const backing: BackingService[] = [];
    for (const [name, entry] of Object.entries(GRPC_CLIENTS) as Array<[ClientName, ClientEntry]>) {
      const address = opts.addresses[entry.address];
      const client = entry.create(address, opts.defaultDeadlineMs);
      clients.push(client);
      fastify.decorate<unknown>(name, client); // typed per entry by GrpcClients (the FastifyInstance augmentation)
      if (entry.health) backing.push(backingService(entry.service, address, client as unknown as Parameters<typeof backingService>[2]));
    }
    fastify.decorate('backingServices', backing);
    fastify.addHook('onClose', async () => {
      for (const client of clients) client.close();
    });
  },
  { name: 'grpc-clients' },
);
