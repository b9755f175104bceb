import { fromBase64, publicKeyFromPrivate, toBase64 } from '@exchange/crypto';
import type { EventBus } from '@exchange/events';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { commerceV1, identityV1, registryV1 } from '@exchange/proto';
import { findMigrationsDir, ServiceHost } from '@exchange/service-host';
import { groupCommitFrom, killSwitchesFrom, WalletLedgerConfigSchema, type WalletLedgerConfig } from './config';
import { CachedAgentDirectory } from './clients/agent-directory.client';
import { GrpcSignedObjectStore } from './clients/registry.client';
import { createWalletAreas, registerWalletLedger, WALLET_LEDGER_SERVICE_NAME } from './grpc/server';
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

/**
 * Starts wallet-ledger on libs/service-host: gRPC (health NOT_SERVING), migrations, controls,
 * event bus, outbox relay and workers; only then SERVING. `stop()` drains gRPC, stops the
 * workers, flushes the outbox and closes the identity client and the pool. Controls: the
 * persisted ones, plus whatever WALLET_READ_ONLY / WALLET_KILL_SWITCHES switch on.
 */
export async function startWalletLedger(config: WalletLedgerConfig, deps: WalletLedgerDeps): Promise<WalletLedgerHandle> {
  const logger = deps.logger;
  const host = new ServiceHost({
    name: 'wallet-ledger',
    grpcServiceName: WALLET_LEDGER_SERVICE_NAME,
    config,
    logger,
    bus: deps.bus,
    migrationsDir: deps.migrationsDir ?? findMigrationsDir(__dirname, 'wallet-ledger'),
  });
  const signingKey = fromBase64(config.EXCHANGE_SIGNING_KEY);
  const pool = host.pool({ max: config.WALLET_DB_POOL_MAX });
  const identity = host.client(identityV1.IdentityServiceService, config.IDENTITY_GRPC_URL, { defaultDeadlineMs: 2_000 });
  // Optional peers: metering and billing store objects in the registry; proxy calls read mandate
  // budgets in commerce. Channels connect lazily, so either may start after the wallet.
  const registry = config.REGISTRY_GRPC_URL ? host.client(registryV1.RegistryServiceService, config.REGISTRY_GRPC_URL, { defaultDeadlineMs: 5_000 }) : undefined;
  const commerce = config.COMMERCE_GRPC_URL ? host.client(commerceV1.CommerceServiceService, config.COMMERCE_GRPC_URL, { defaultDeadlineMs: 2_000 }) : undefined;
  // Each area's repository and service (src/<area>/), given only what it uses: grpc/server.ts.
  const { services, workers } = createWalletAreas({
    pool,
    logger,
    afterCommit: host.notify,
    agents: new CachedAgentDirectory(identity, config.AGENT_CACHE_TTL_MS, logger),
    clock: deps.clock ?? (() => new Date()),
    environment: config.EXCHANGE_ENV,
    signer: { privateKey: signingKey, publicKey: toBase64(publicKeyFromPrivate(signingKey)) },
    institutionalLimit: institutionalLimitFrom(config.INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT),
    objects: new GrpcSignedObjectStore(registry),
    commerce,
    groupCommit: groupCommitFrom(config),
  });
  host.periodic('hold-sweeper', config.HOLD_SWEEP_INTERVAL_MS, workers.sweepHolds);
  host.periodic('payout-processor', config.PAYOUT_PROCESSOR_INTERVAL_MS, workers.processPayouts);
  const running = await host.start({
    register: (server) => registerWalletLedger(server, services, logger),
    outbox: pool,
    afterMigrations: async () => {
      const controls = await services.operations.applyStartup({ readOnly: config.WALLET_READ_ONLY, killSwitches: killSwitchesFrom(config) });
      logger.info({ read_only: controls.readOnly, kill_switches: controls.killSwitches }, 'wallet-ledger controls');
    },
  });
  return { grpcPort: running.grpcPort, health: running.health, workers, stop: running.stop };
}
