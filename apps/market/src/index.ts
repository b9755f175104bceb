import type { EventBus, Subscription } from '@exchange/events';
import { AgentDirectory } from '@exchange/identity-client';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { identityV1, telemetryV1, walletV1 } from '@exchange/proto';
import { findMigrationsDir, ServiceHost } from '@exchange/service-host';
import { faultPointsFrom, MarketConfigSchema, type MarketConfig } from './config';
import { MARKET_SERVICE_NAME, registerMarket } from './grpc/server';
import { startFixtureConsumer } from './catalog/fixture-consumer.handlers';
import { IdentityBuyerAliases } from './clients/buyer-aliases.client';
import { MATCHING_DEADLINE_MS, TelemetryMatchingSignals } from './clients/telemetry-matching.client';
import type { MarketRuntime } from './service/runtime';
import { recoverBuyerAliases, recoverSteps } from './workers/recovery';
import { sweepDeadlines } from './workers/sweeper';
import { IntegrityService } from './integrity/integrity.service';

export { MarketConfigSchema, type MarketConfig } from './config';
export { MARKET_SERVICE_NAME } from './grpc/server';

/** Typed configuration from environment variables; throws ConfigError naming the bad variable. */
export function readMarketConfig(env: Record<string, string | undefined> = process.env): MarketConfig {
  return readConfig(MarketConfigSchema, env);
}

export interface MarketDeps {
  logger: Logger;
  /** Shared bus (all-in-one launcher); otherwise one is created from NATS_URL, or in process. */
  bus?: EventBus;
  /** Where the SQL migrations are; found next to the sources or the bundle when omitted. */
  migrationsDir?: string;
  /** Test hook: the service's clock (default: the system clock). */
  clock?: () => Date;
}

export interface MarketHandle {
  grpcPort: number;
  health: GrpcServerHandle;
  /**
   * Run one worker round now, whatever the intervals (tests set MARKET_SWEEP_INTERVAL_MS and
   * MARKET_RECOVERY_INTERVAL_MS to 0 and drive the rounds by hand).
   */
  workers: {
    /** Expires contracts past their deadline (awarded ones after the grace); returns how many. */
    sweep(): Promise<number>;
    /** Runs every pending saga step (whatever its age); returns how many completed. */
    recover(): Promise<number>;
    /** Pushes the integrity controls to wallet-ledger unless it acknowledged them; true when in sync. */
    syncWalletControls(): Promise<boolean>;
  };
  stop(): Promise<void>;
}

/** Steps younger than this are left to the request that recorded them (periodic recovery only). */
const RECOVERY_MIN_AGE_MS = 1000;
const WALLET_DEADLINE_MS = 5000;

/**
 * Starts market on libs/service-host: gRPC (health NOT_SERVING), migrations, event bus, outbox
 * relay, the fixtures consumer and a first recovery pass over every pending saga step; only then
 * the periodic workers and SERVING. `stop()` drains gRPC, stops the workers and the consumer,
 * flushes the outbox and closes the clients and pools.
 */
export async function startMarket(config: MarketConfig, deps: MarketDeps): Promise<MarketHandle> {
  const logger = deps.logger;
  const host = new ServiceHost({
    name: 'market',
    grpcServiceName: MARKET_SERVICE_NAME,
    config,
    logger,
    bus: deps.bus,
    migrationsDir: deps.migrationsDir ?? findMigrationsDir(__dirname, 'market'),
  });
  const pool = host.pool({ max: config.MARKET_DB_POOL_MAX });
  const claims = host.pool({ max: config.MARKET_DB_POOL_MAX, applicationName: 'market-idempotency' });
  const identity = host.client(identityV1.IdentityServiceService, config.IDENTITY_GRPC_URL, { defaultDeadlineMs: 2_000 });
  const wallet = host.client(walletV1.WalletLedgerServiceService, config.WALLET_LEDGER_GRPC_URL, { defaultDeadlineMs: WALLET_DEADLINE_MS });
  // Optional: without telemetry, recommendations rank on the market's own signals.
  const telemetry = config.TELEMETRY_GRPC_URL
    ? host.client(telemetryV1.TelemetryServiceService, config.TELEMETRY_GRPC_URL, { defaultDeadlineMs: MATCHING_DEADLINE_MS })
    : null;
  const runtime: MarketRuntime = {
    pool,
    claims,
    agents: new AgentDirectory(identity, config.AGENT_CACHE_TTL_MS, logger),
    aliases: new IdentityBuyerAliases(identity, logger),
    wallet,
    matching: telemetry ? new TelemetryMatchingSignals(telemetry, logger) : undefined,
    clock: deps.clock ?? (() => new Date()),
    logger,
    feeBps: config.MARKET_FEE_BPS,
    exchangeEnv: config.EXCHANGE_ENV,
    resaleMaxDepth: config.MARKET_RESALE_MAX_DEPTH,
    awardGraceMs: config.MARKET_AWARD_GRACE_MS,
    disputeWindowDays: config.MARKET_DISPUTE_WINDOW_DAYS,
    faults: faultPointsFrom(config),
    notify: host.notify,
  };
  // The workers' own integrity service (the gRPC areas build theirs in grpc/server.ts; both stateless).
  const integrity = new IntegrityService(runtime);
  const workers = {
    sweep: () => sweepDeadlines(runtime),
    recover: async () => (await recoverSteps(runtime, null)) + (await recoverBuyerAliases(runtime)),
    syncWalletControls: () => integrity.syncWallet(),
  };
  host.periodic('deadline-sweeper', config.MARKET_SWEEP_INTERVAL_MS, workers.sweep);
  host.periodic('saga-recovery', config.MARKET_RECOVERY_INTERVAL_MS, async () => (await recoverSteps(runtime, RECOVERY_MIN_AGE_MS)) + (await recoverBuyerAliases(runtime)));
  // Retries the wallet controls push while wallet-ledger has not acknowledged the latest change.
  host.periodic('integrity-wallet-sync', config.MARKET_RECOVERY_INTERVAL_MS, async () => ((await integrity.syncWallet()) ? 0 : 1));
  let fixtureConsumer: Subscription | undefined;
  host.onStop('fixtures consumer', () => fixtureConsumer?.stop());

  const running = await host.start({
    register: (server) => registerMarket(server, runtime),
    outbox: pool,
    beforeServing: async ({ bus }) => {
      // The fixtures index follows the registry's object events (durable market-fixtures).
      fixtureConsumer = await startFixtureConsumer({ bus, pool, logger, notify: runtime.notify });
      // Whatever a crash left pending is finished (or found still unreachable) before we serve.
      const recovered = await workers.recover();
      if (recovered > 0) logger.info({ recovered }, 'market saga steps recovered at start');
      // The market is the single writer of wallet-ledger's controls: a change not yet acknowledged is pushed now.
      if (!(await integrity.syncWallet().catch(() => false))) logger.warn('wallet controls not pushed at start; retried by the worker');
    },
  });
  return { grpcPort: running.grpcPort, health: running.health, workers, stop: running.stop };
}
