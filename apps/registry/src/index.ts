import fs from 'node:fs';
import path from 'node:path';
import { createPgPool, runMigrations } from '@exchange/db';
import { createEventBus, OutboxRelay, type EventBus } from '@exchange/events';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { RegistryConfigSchema, type RegistryConfig } from './config';
import { registryHandlers, startRegistryGrpcServer } from './grpc/server';
import { createRegistryContext } from './service/context';
import { RegistryService } from './service/registry.service';

export { RegistryConfigSchema, type RegistryConfig } from './config';
export { REGISTRY_SERVICE_NAME, REGISTRY_MAX_MESSAGE_BYTES } from './grpc/server';

/** Typed configuration from environment variables; throws ConfigError naming the bad variable. */
export function readRegistryConfig(env: Record<string, string | undefined> = process.env): RegistryConfig {
  return readConfig(RegistryConfigSchema, env);
}

export interface RegistryDeps {
  logger: Logger;
  /** Shared bus (all-in-one launcher); otherwise one is created from NATS_URL, or in process. */
  bus?: EventBus;
  /** Where the SQL migrations are; found next to the sources or the bundle when omitted. */
  migrationsDir?: string;
  /** Test hook: the service's clock (default: the system clock). */
  clock?: () => Date;
}

export interface RegistryHandle {
  grpcPort: number;
  health: GrpcServerHandle;
  stop(): Promise<void>;
}

// tsx/jest run from apps/registry/src; the bundle has prisma/ beside it; the all-in-one bundle
// (apps/exchange) copies it to registry/prisma/.
function defaultMigrationsDir(): string {
  const candidates = [
    path.join(__dirname, '..', 'prisma', 'migrations'),
    path.join(__dirname, 'prisma', 'migrations'),
    path.join(__dirname, 'registry', 'prisma', 'migrations'),
  ];
  return candidates.find((dir) => fs.existsSync(dir)) ?? candidates[0];
}

/**
 * Starts registry: gRPC first (health NOT_SERVING), then migrations, event bus and outbox relay;
 * only then SERVING. `stop()` drains gRPC, flushes the outbox and closes the pool and clients.
 */
export async function startRegistry(config: RegistryConfig, deps: RegistryDeps): Promise<RegistryHandle> {
  const logger = deps.logger;
  const pool = createPgPool(config.DATABASE_URL, { max: config.REGISTRY_DB_POOL_MAX, applicationName: 'registry', logger });
  let relay: OutboxRelay | undefined;
  const ctx = createRegistryContext(config, { pool, logger, clock: deps.clock ?? (() => new Date()), notify: () => relay?.notify() });
  const service = new RegistryService(ctx);

  let grpc: GrpcServerHandle | undefined;
  let bus: EventBus | undefined;
  const ownsBus = deps.bus === undefined;
  const stop = async () => {
    await grpc?.shutdown();
    await relay?.stop();
    if (ownsBus) await bus?.close();
    ctx.close();
    await pool.end();
  };

  try {
    grpc = await startRegistryGrpcServer({ handlers: registryHandlers(service, logger), logger, host: config.GRPC_HOST, port: config.GRPC_PORT });
    const { applied } = await runMigrations({
      connectionString: config.DATABASE_URL,
      migrationsDir: deps.migrationsDir ?? defaultMigrationsDir(),
      logger,
    });
    logger.info({ applied }, 'registry migrations done');
    await ctx.store.init();
    bus = deps.bus ?? (await createEventBus({ natsUrl: config.NATS_URL, logger }));
    relay = new OutboxRelay({ pool, bus, logger });
    relay.start();
    grpc.setServing();
  } catch (err) {
    await stop().catch((cleanupErr) => logger.error({ err: cleanupErr }, 'registry cleanup after failed start failed'));
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return { grpcPort: grpc.port, health: grpc, stop: () => (stopping ??= stop()) };
}
