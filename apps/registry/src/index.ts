import type { EventBus } from '@exchange/events';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { findMigrationsDir, ServiceHost } from '@exchange/service-host';
import { RegistryConfigSchema, type RegistryConfig } from './config';
import { REGISTRY_MAX_MESSAGE_BYTES, REGISTRY_SERVICE_NAME, registerRegistry, registryHandlers } from './grpc/server';
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

/**
 * Starts registry on libs/service-host: gRPC (health NOT_SERVING), migrations, the artifact
 * store, event bus and outbox relay; only then SERVING. `stop()` drains gRPC, flushes the outbox
 * and closes the clients, the store and the pool.
 */
export async function startRegistry(config: RegistryConfig, deps: RegistryDeps): Promise<RegistryHandle> {
  const host = new ServiceHost({
    name: 'registry',
    grpcServiceName: REGISTRY_SERVICE_NAME,
    config,
    logger: deps.logger,
    bus: deps.bus,
    migrationsDir: deps.migrationsDir ?? findMigrationsDir(__dirname, 'registry'),
    maxMessageBytes: REGISTRY_MAX_MESSAGE_BYTES,
  });
  const pool = host.pool({ max: config.REGISTRY_DB_POOL_MAX });
  const ctx = createRegistryContext(config, { pool, logger: deps.logger, clock: deps.clock ?? (() => new Date()), notify: host.notify });
  host.onClose('clients and store', () => ctx.close());
  const service = new RegistryService(ctx);
  const running = await host.start({
    register: (server) => registerRegistry(server, registryHandlers(service, deps.logger)),
    outbox: pool,
    afterMigrations: () => ctx.store.init(),
  });
  return { grpcPort: running.grpcPort, health: running.health, stop: running.stop };
}
