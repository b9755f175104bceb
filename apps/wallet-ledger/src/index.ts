import fs from 'node:fs';
import path from 'node:path';
import { fromBase64, publicKeyFromPrivate, toBase64 } from '@exchange/crypto';
import { createPgPool, runMigrations } from '@exchange/db';
import { createEventBus, OutboxRelay, type EventBus } from '@exchange/events';
import { createServiceClient, Periodic, readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import { killSwitchesFrom, WalletLedgerConfigSchema, type WalletLedgerConfig } from './config';
import { CachedAgentDirectory } from './clients/agent-directory.client';
import { createWalletAreas, startWalletGrpcServer } from './grpc/server';
import { institutionalLimitFrom } from './payouts/payouts.service';

export { WalletLedgerConfigSchema, type WalletLedgerConfig } from './config';
export { WALLET_LEDGER_SERVICE_NAME } from './grpc/server';
export { WALLET_EVENT_TYPES } from './events/wallet.events';

/** Typed configuration from environment variables; throws ConfigError naming the bad variable. */
export function readWalletLedgerConfig(env: Record<string, string | undefined> = process.env): WalletLedgerConfig {
  return readConfig(WalletLedgerConfigSchema, env);
}

export interface WalletLedgerDeps {
  logger: Logger;
  /** Shared bus (all-in-one launcher); otherwise one is created from NATS_URL, or in process. */
  bus?: EventBus;
  /** Where the SQL migrations are; found next to the sources or the bundle when omitted. */
  migrationsDir?: string;
  /** Test hook: the service's clock (default: the system clock). */
  clock?: () => Date;
}

export interface WalletLedgerHandle {
  grpcPort: number;
  health: GrpcServerHandle;
  /**
   * Run one worker round now, whatever the intervals (tests set HOLD_SWEEP_INTERVAL_MS and
   * PAYOUT_PROCESSOR_INTERVAL_MS to 0 to switch the timers off and drive the rounds by hand).
   */
  workers: {
    /** Expires due holds; returns how many. */
    sweepHolds(): Promise<number>;
    /** Moves every open withdrawal one step; returns the steps taken. */
    processPayouts(): Promise<number>;
  };
  stop(): Promise<void>;
}

// tsx/jest run from apps/wallet-ledger/src; the bundle has prisma/ beside it; the all-in-one
// bundle (apps/exchange) copies it to wallet-ledger/prisma/.
function defaultMigrationsDir(): string {
  const candidates = [
    path.join(__dirname, '..', 'prisma', 'migrations'),
    path.join(__dirname, 'prisma', 'migrations'),
    path.join(__dirname, 'wallet-ledger', 'prisma', 'migrations'),
  ];
  return candidates.find((dir) => fs.existsSync(dir)) ?? candidates[0];
}

/**
 * Starts wallet-ledger: gRPC first (health NOT_SERVING), then migrations, controls, event bus,
 * outbox relay and workers; only then SERVING. `stop()` drains gRPC, stops the workers, flushes
 * the outbox and closes the pool. Controls: the persisted ones, plus whatever WALLET_READ_ONLY /
 * WALLET_KILL_SWITCHES switch on.
 */
export async function startWalletLedger(config: WalletLedgerConfig, deps: WalletLedgerDeps): Promise<WalletLedgerHandle> {
  const logger = deps.logger;
  const signingKey = fromBase64(config.EXCHANGE_SIGNING_KEY);
  const signerPublicKey = toBase64(publicKeyFromPrivate(signingKey));
  const pool = createPgPool(config.DATABASE_URL, { max: config.WALLET_DB_POOL_MAX, applicationName: 'wallet-ledger', logger });
  const identity = createServiceClient(identityV1.IdentityServiceService, config.IDENTITY_GRPC_URL, { defaultDeadlineMs: 2_000 });
  let relay: OutboxRelay | undefined;
  const notify = () => relay?.notify();
  // Each area's repository and service (src/<area>/), given only what it uses: grpc/server.ts.
  const { services, workers } = createWalletAreas({
    pool,
    logger,
    afterCommit: notify,
    agents: new CachedAgentDirectory(identity, config.AGENT_CACHE_TTL_MS, logger),
    clock: deps.clock ?? (() => new Date()),
    environment: config.EXCHANGE_ENV,
    signer: { privateKey: signingKey, publicKey: signerPublicKey },
    institutionalLimit: institutionalLimitFrom(config.INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT),
  });
  const sweeper = new Periodic('hold-sweeper', config.HOLD_SWEEP_INTERVAL_MS, workers.sweepHolds, logger);
  const processor = new Periodic('payout-processor', config.PAYOUT_PROCESSOR_INTERVAL_MS, workers.processPayouts, logger);

  let grpc: GrpcServerHandle | undefined;
  let bus: EventBus | undefined;
  const ownsBus = deps.bus === undefined;
  const stop = async () => {
    await grpc?.shutdown();
    await Promise.all([sweeper.stop(), processor.stop()]);
    await relay?.stop();
    if (ownsBus) await bus?.close();
    identity.close();
    await pool.end();
  };

  try {
    grpc = await startWalletGrpcServer({ services, logger, host: config.GRPC_HOST, port: config.GRPC_PORT });
    const { applied } = await runMigrations({
      connectionString: config.DATABASE_URL,
      migrationsDir: deps.migrationsDir ?? defaultMigrationsDir(),
      logger,
    });
    logger.info({ applied }, 'wallet-ledger migrations done');
    const controls = await services.operations.applyStartup({
      readOnly: config.WALLET_READ_ONLY,
      killSwitches: killSwitchesFrom(config),
    });
    logger.info({ read_only: controls.readOnly, kill_switches: controls.killSwitches }, 'wallet-ledger controls');
    bus = deps.bus ?? (await createEventBus({ natsUrl: config.NATS_URL, logger }));
    relay = new OutboxRelay({ pool, bus, logger });
    relay.start();
    sweeper.start();
    processor.start();
    grpc.setServing();
  } catch (err) {
    await stop().catch((cleanupErr) => logger.error({ err: cleanupErr }, 'wallet-ledger cleanup after failed start failed'));
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return { grpcPort: grpc.port, health: grpc, workers, stop: () => (stopping ??= stop()) };
}
