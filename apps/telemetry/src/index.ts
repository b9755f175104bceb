import type { EventBus, Subscription } from '@exchange/events';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { findMigrationsDir, ServiceHost } from '@exchange/service-host';
import { TelemetryConfigSchema, type TelemetryConfig } from './config';
import { TELEMETRY_SERVICE_NAME, registerTelemetry } from './grpc/server';
import { startEventConsumer } from './ingest/event-consumer.handlers';
import type { TelemetryRuntime } from './service/runtime';

export { TelemetryConfigSchema, type TelemetryConfig } from './config';
export { TELEMETRY_SERVICE_NAME } from './grpc/server';

/** Typed configuration from environment variables; throws ConfigError naming the bad variable. */
export function readTelemetryConfig(env: Record<string, string | undefined> = process.env): TelemetryConfig {
  return readConfig(TelemetryConfigSchema, env);
}

export interface TelemetryDeps {
  logger: Logger;
  /** Shared bus (all-in-one launcher); otherwise one is created from NATS_URL, or in process. */
  bus?: EventBus;
  /** Where the SQL migrations are; found next to the sources or the bundle when omitted. */
  migrationsDir?: string;
  /** Test hook: the service's clock (default: the system clock). */
  clock?: () => Date;
  /** Test hook: the event consumer's durable name (default TELEMETRY_EVENTS_DURABLE), for tests sharing a NATS server. */
  eventsDurable?: string;
}

export interface TelemetryHandle {
  grpcPort: number;
  health: GrpcServerHandle;
  stop(): Promise<void>;
}

/**
 * Starts telemetry on libs/service-host: gRPC (health NOT_SERVING), migrations, event bus and
 * outbox relay, the `exchange.>` consumer; only then SERVING. `stop()` drains gRPC, stops the
 * consumer, then flushes the outbox.
 */
export async function startTelemetry(config: TelemetryConfig, deps: TelemetryDeps): Promise<TelemetryHandle> {
  const logger = deps.logger;
  const host = new ServiceHost({
    name: 'telemetry',
    grpcServiceName: TELEMETRY_SERVICE_NAME,
    config,
    logger,
    bus: deps.bus,
    migrationsDir: deps.migrationsDir ?? findMigrationsDir(__dirname, 'telemetry'),
  });
  const clock = deps.clock ?? (() => new Date());
  const pool = host.pool({ max: config.TELEMETRY_DB_POOL_MAX });
  const runtime: TelemetryRuntime = { pool, clock, logger, notify: host.notify };
  let consumer: Subscription | undefined;
  host.onStop('events consumer', () => consumer?.stop());
  const running = await host.start({
    register: (server) => registerTelemetry(server, runtime, logger),
    outbox: pool,
    beforeServing: async ({ bus }) => {
      consumer = await startEventConsumer({ bus, pool, logger, notify: host.notify, durable: deps.eventsDurable ?? config.TELEMETRY_EVENTS_DURABLE });
    },
  });
  return { grpcPort: running.grpcPort, health: running.health, stop: running.stop };
}
