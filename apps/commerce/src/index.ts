import type { EventBus } from '@exchange/events';
import { fromBase64, publicKeyFromPrivate, toBase64 } from '@exchange/crypto';
import { AgentDirectory } from '@exchange/identity-client';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { identityV1, marketV1, walletV1, workflowsV1 } from '@exchange/proto';
import { findMigrationsDir, ServiceHost } from '@exchange/service-host';
import { createUcpValidator } from '@exchange/ucp';
import { CommerceConfigSchema, type CommerceConfig } from './config';
import { originSources } from './clients/origin.client';
import { UcpMerchantClient, parseMerchantDirectory } from './clients/ucp-merchant.client';
import { faultPointsFrom } from './domain/faults';
import { COMMERCE_SERVICE_NAME, registerCommerce } from './grpc/server';
import { createPlatformIdentity } from './merchants/platform-identity';
import type { CommerceRuntime } from './service/runtime';
import { recoverPurchases } from './workers/purchase-recovery';
import { recoverCaseRefunds } from './cases/case-refund.worker';

export { CommerceConfigSchema, type CommerceConfig } from './config';
export { COMMERCE_SERVICE_NAME } from './grpc/server';

/** Typed configuration from environment variables; throws ConfigError naming the bad variable. */
export function readCommerceConfig(env: Record<string, string | undefined> = process.env): CommerceConfig {
  return readConfig(CommerceConfigSchema, env);
}

export interface CommerceDeps {
  logger: Logger;
  /** Shared bus (all-in-one launcher); otherwise one is created from NATS_URL, or in process. */
  bus?: EventBus;
  /** Where the SQL migrations are; found next to the sources or the bundle when omitted. */
  migrationsDir?: string;
  /** Test hook: the service's clock (default: the system clock). */
  clock?: () => Date;
  /** Test hook: the fetch merchant calls go through (default: global fetch). */
  fetch?: typeof fetch;
}

export interface CommerceHandle {
  grpcPort: number;
  health: GrpcServerHandle;
  /** One recovery round now (tests): the number of purchases moved on. */
  recover(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts commerce on libs/service-host: gRPC (health NOT_SERVING), migrations, event bus and
 * outbox relay, a recovery round for purchases a crash left in flight; only then SERVING.
 */
export async function startCommerce(config: CommerceConfig, deps: CommerceDeps): Promise<CommerceHandle> {
  const logger = deps.logger;
  const host = new ServiceHost({
    name: 'commerce',
    grpcServiceName: COMMERCE_SERVICE_NAME,
    config,
    logger,
    bus: deps.bus,
    migrationsDir: deps.migrationsDir ?? findMigrationsDir(__dirname, 'commerce'),
  });
  const clock = deps.clock ?? (() => new Date());
  const pool = host.pool({ max: config.COMMERCE_DB_POOL_MAX });
  const identity = host.client(identityV1.IdentityServiceService, config.IDENTITY_GRPC_URL, { defaultDeadlineMs: 2_000 });
  const wallet = host.client(walletV1.WalletLedgerServiceService, config.WALLET_LEDGER_GRPC_URL, { defaultDeadlineMs: 5_000 });
  const market = host.client(marketV1.MarketServiceService, config.MARKET_GRPC_URL, { defaultDeadlineMs: 5_000 });
  const workflows = host.client(workflowsV1.WorkflowsServiceService, config.WORKFLOWS_GRPC_URL, { defaultDeadlineMs: 5_000 });
  const signingKey = fromBase64(config.EXCHANGE_SIGNING_KEY);
  const platform = createPlatformIdentity({
    platformKeyJwk: config.COMMERCE_PLATFORM_KEY,
    exchangeSigningKey: signingKey,
    publicUrl: config.EXCHANGE_PUBLIC_URL,
  });
  const ucp = createUcpValidator();
  const merchants = new UcpMerchantClient({
    platform,
    directory: parseMerchantDirectory(config.MERCHANT_DIRECTORY),
    profileTtlMs: config.MERCHANT_PROFILE_TTL_MS,
    timeoutMs: config.MERCHANT_TIMEOUT_MS,
    clock,
    logger,
    fetch: deps.fetch,
    validator: ucp,
  });
  const runtime: CommerceRuntime = {
    pool,
    agents: new AgentDirectory(identity, config.AGENT_CACHE_TTL_MS, logger),
    wallet,
    merchants,
    origins: originSources(market, workflows),
    platform,
    ucp,
    exchangeSigner: { privateKey: signingKey, publicKey: toBase64(publicKeyFromPrivate(signingKey)) },
    clock,
    logger,
    notify: host.notify,
    faults: faultPointsFrom(config.COMMERCE_FAULT_INJECTION),
    recoveryAfterMs: config.COMMERCE_RECOVERY_AFTER_MS,
    exchangeEnv: config.EXCHANGE_ENV,
  };
  const recover = () => recoverPurchases(runtime, runtime.recoveryAfterMs);
  host.periodic('purchase-recovery', config.COMMERCE_RECOVERY_INTERVAL_MS, recover);
  // Approved cases whose credit a crash or an unreachable wallet-ledger left pending.
  host.periodic('case-refund-recovery', config.COMMERCE_RECOVERY_INTERVAL_MS, () => recoverCaseRefunds(runtime, runtime.recoveryAfterMs));
  const running = await host.start({
    register: (server) => registerCommerce(server, runtime, logger),
    outbox: pool,
    beforeServing: async () => {
      // Whatever a crash left in flight is finished (or found still unreachable) before we serve.
      const recovered = await recoverPurchases(runtime, 0);
      if (recovered > 0) logger.info({ recovered }, 'purchases recovered at start');
      const credited = await recoverCaseRefunds(runtime, 0);
      if (credited > 0) logger.info({ credited }, 'case refunds credited at start');
    },
  });
  return { grpcPort: running.grpcPort, health: running.health, recover: () => recoverPurchases(runtime, 0), stop: running.stop };
}
