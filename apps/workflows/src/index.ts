import type { EventBus } from '@exchange/events';
import { fromBase64, publicKeyFromPrivate, toBase64 } from '@exchange/crypto';
import { AgentDirectory } from '@exchange/identity-client';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { identityV1, marketV1, registryV1, walletV1 } from '@exchange/proto';
import { findMigrationsDir, ServiceHost } from '@exchange/service-host';
import { WorkflowsConfigSchema, type WorkflowsConfig } from './config';
import { WORKFLOWS_SERVICE_NAME, registerWorkflows } from './grpc/server';
import type { WorkflowsRuntime } from './service/runtime';

export { WorkflowsConfigSchema, type WorkflowsConfig } from './config';
export { WORKFLOWS_SERVICE_NAME } from './grpc/server';

/** Typed configuration from environment variables; throws ConfigError naming the bad variable. */
export function readWorkflowsConfig(env: Record<string, string | undefined> = process.env): WorkflowsConfig {
  return readConfig(WorkflowsConfigSchema, env);
}

export interface WorkflowsDeps {
  logger: Logger;
  /** Shared bus (all-in-one launcher); otherwise one is created from NATS_URL, or in process. */
  bus?: EventBus;
  /** Where the SQL migrations are; found next to the sources or the bundle when omitted. */
  migrationsDir?: string;
  /** Test hook: the service's clock (default: the system clock). */
  clock?: () => Date;
}

export interface WorkflowsHandle {
  grpcPort: number;
  health: GrpcServerHandle;
  stop(): Promise<void>;
}

/**
 * Starts workflows on libs/service-host: gRPC (health NOT_SERVING), migrations, event bus and
 * outbox relay; only then SERVING.
 */
export async function startWorkflows(config: WorkflowsConfig, deps: WorkflowsDeps): Promise<WorkflowsHandle> {
  const logger = deps.logger;
  const host = new ServiceHost({
    name: 'workflows',
    grpcServiceName: WORKFLOWS_SERVICE_NAME,
    config,
    logger,
    bus: deps.bus,
    migrationsDir: deps.migrationsDir ?? findMigrationsDir(__dirname, 'workflows'),
  });
  const clock = deps.clock ?? (() => new Date());
  const pool = host.pool({ max: config.WORKFLOWS_DB_POOL_MAX });
  const identity = host.client(identityV1.IdentityServiceService, config.IDENTITY_GRPC_URL, { defaultDeadlineMs: 2_000 });
  const market = host.client(marketV1.MarketServiceService, config.MARKET_GRPC_URL, { defaultDeadlineMs: 10_000 });
  const wallet = host.client(walletV1.WalletLedgerServiceService, config.WALLET_LEDGER_GRPC_URL, { defaultDeadlineMs: 5_000 });
  const registry = host.client(registryV1.RegistryServiceService, config.REGISTRY_GRPC_URL, { defaultDeadlineMs: 30_000 });
  const signingKey = fromBase64(config.EXCHANGE_SIGNING_KEY);
  const runtime: WorkflowsRuntime = {
    pool,
    agents: new AgentDirectory(identity, config.AGENT_CACHE_TTL_MS, logger),
    market,
    wallet,
    registry,
    exchangeSigner: { privateKey: signingKey, publicKey: toBase64(publicKeyFromPrivate(signingKey)) },
    clock,
    logger,
    notify: host.notify,
  };
  const running = await host.start({
    register: (server) => registerWorkflows(server, runtime, logger),
    outbox: pool,
  });
  return { grpcPort: running.grpcPort, health: running.health, stop: running.stop };
}
