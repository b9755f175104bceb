import fs from 'node:fs';
import path from 'node:path';
import { createPgPool, runMigrations } from '@exchange/db';
import { createEventBus, OutboxRelay, type EventBus, type Subscription } from '@exchange/events';
import { createServiceClient, Periodic, readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { identityV1, walletV1 } from '@exchange/proto';
import { faultPointsFrom, MarketConfigSchema, type MarketConfig } from './config';
import { startMarketGrpcServer } from './grpc/server';
import { startFixtureConsumer } from './catalog/fixture-consumer.handlers';
import { AgentDirectory } from '@exchange/identity-client';
import { IdentityBuyerAliases } from './clients/buyer-aliases.client';
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

// tsx/jest run from apps/market/src; the bundle has prisma/ beside it; the all-in-one bundle
// (apps/exchange) copies it to market/prisma/.
function defaultMigrationsDir(): string {
  const candidates = [
    path.join(__dirname, '..', 'prisma', 'migrations'),
    path.join(__dirname, 'prisma', 'migrations'),
    path.join(__dirname, 'market', 'prisma', 'migrations'),
  ];
  return candidates.find((dir) => fs.existsSync(dir)) ?? candidates[0];
}

/**
 * Starts market: gRPC first (health NOT_SERVING), then migrations, event bus, outbox relay and a
 * first recovery pass over every pending saga step; only then SERVING and the periodic workers.
 * `stop()` drains gRPC, stops the workers, flushes the outbox and closes the pool and clients.
 */
export async function startMarket(config: MarketConfig, deps: MarketDeps): Promise<MarketHandle> {
  const logger = deps.logger;
  const pool = createPgPool(config.DATABASE_URL, { max: config.MARKET_DB_POOL_MAX, applicationName: 'market', logger });
  const claims = createPgPool(config.DATABASE_URL, { max: config.MARKET_DB_POOL_MAX, applicationName: 'market-idempotency', logger });
  const identity = createServiceClient(identityV1.IdentityServiceService, config.IDENTITY_GRPC_URL, { defaultDeadlineMs: 2_000 });
  const wallet = createServiceClient(walletV1.WalletLedgerServiceService, config.WALLET_LEDGER_GRPC_URL, { defaultDeadlineMs: WALLET_DEADLINE_MS });
  let relay: OutboxRelay | undefined;
  const runtime: MarketRuntime = {
    pool,
    claims,
    agents: new AgentDirectory(identity, config.AGENT_CACHE_TTL_MS, logger),
    aliases: new IdentityBuyerAliases(identity, logger),
    wallet,
    clock: deps.clock ?? (() => new Date()),
    logger,
    feeBps: config.MARKET_FEE_BPS,
    exchangeEnv: config.EXCHANGE_ENV,
    resaleMaxDepth: config.MARKET_RESALE_MAX_DEPTH,
    awardGraceMs: config.MARKET_AWARD_GRACE_MS,
    disputeWindowDays: config.MARKET_DISPUTE_WINDOW_DAYS,
    faults: faultPointsFrom(config),
    notify: () => relay?.notify(),
  };
  // The workers' own integrity service (the gRPC areas build theirs in grpc/server.ts; both stateless).
  const integrity = new IntegrityService(runtime);
  const workers = {
    sweep: () => sweepDeadlines(runtime),
    recover: async () => (await recoverSteps(runtime, null)) + (await recoverBuyerAliases(runtime)),
    syncWalletControls: () => integrity.syncWallet(),
  };
  const sweeper = new Periodic('deadline-sweeper', config.MARKET_SWEEP_INTERVAL_MS, workers.sweep, logger);
  const recovery = new Periodic('saga-recovery', config.MARKET_RECOVERY_INTERVAL_MS, async () => (await recoverSteps(runtime, RECOVERY_MIN_AGE_MS)) + (await recoverBuyerAliases(runtime)), logger);
  // Retries the wallet controls push while wallet-ledger has not acknowledged the latest change.
  const walletSync = new Periodic('integrity-wallet-sync', config.MARKET_RECOVERY_INTERVAL_MS, async () => ((await integrity.syncWallet()) ? 0 : 1), logger);

  let grpc: GrpcServerHandle | undefined;
  let bus: EventBus | undefined;
  const ownsBus = deps.bus === undefined;
  let fixtureConsumer: Subscription | undefined;
  const stop = async () => {
    await grpc?.shutdown();
    await Promise.all([sweeper.stop(), recovery.stop(), walletSync.stop()]);
    await fixtureConsumer?.stop();
    await relay?.stop();
    if (ownsBus) await bus?.close();
    identity.close();
    wallet.close();
    await pool.end();
    await claims.end();
  };

  try {
    grpc = await startMarketGrpcServer({ runtime, host: config.GRPC_HOST, port: config.GRPC_PORT });
    const { applied } = await runMigrations({
      connectionString: config.DATABASE_URL,
      migrationsDir: deps.migrationsDir ?? defaultMigrationsDir(),
      logger,
    });
    logger.info({ applied }, 'market migrations done');
    bus = deps.bus ?? (await createEventBus({ natsUrl: config.NATS_URL, logger }));
    relay = new OutboxRelay({ pool, bus, logger });
    relay.start();
    // The fixtures index follows the registry's object events (durable market-fixtures).
    fixtureConsumer = await startFixtureConsumer({ bus, pool, logger, notify: runtime.notify });
    // Whatever a crash left pending is finished (or found still unreachable) before we serve.
    const recovered = await workers.recover();
    if (recovered > 0) logger.info({ recovered }, 'market saga steps recovered at start');
    // The market is the single writer of wallet-ledger's controls: a change not yet acknowledged is pushed now.
    if (!(await integrity.syncWallet().catch(() => false))) logger.warn('wallet controls not pushed at start; retried by the worker');
    sweeper.start();
    recovery.start();
    walletSync.start();
    grpc.setServing();
  } catch (err) {
    await stop().catch((cleanupErr) => logger.error({ err: cleanupErr }, 'market cleanup after failed start failed'));
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return { grpcPort: grpc.port, health: grpc, workers, stop: () => (stopping ??= stop()) };
}
