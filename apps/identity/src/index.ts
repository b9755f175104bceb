import fs from 'node:fs';
import path from 'node:path';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { createPgPool, runMigrations } from '@exchange/db';
import { createEventBus, OutboxRelay, type EventBus } from '@exchange/events';
import { IdentityConfigSchema, type IdentityConfig } from './config';
import { PgAgentReader } from './agents/agents.repo';
import { PgAliasStore } from './aliases/aliases.repo';
import { PrismaAgentWriter } from './agents/agent-writer.repo';
import { createIdentityPrisma } from './data/prisma';
import { AgentService } from './agents/agents.service';
import { AliasService } from './aliases/aliases.service';
import { identityEvents } from './agents/agents.events';
import { startIdentityGrpcServer } from './grpc/server';
import { GrpcExchangeObjectStore } from './clients/registry.client';

export { IdentityConfigSchema, type IdentityConfig } from './config';
export { IDENTITY_SERVICE_NAME } from './grpc/server';
export { IDENTITY_EVENT_TYPES } from './agents/agents.events';

/** Typed configuration from environment variables; throws ConfigError naming the bad variable. */
export function readIdentityConfig(env: Record<string, string | undefined> = process.env): IdentityConfig {
  return readConfig(IdentityConfigSchema, env);
}

export interface IdentityDeps {
  logger: Logger;
  /** Shared bus (all-in-one launcher); otherwise one is created from NATS_URL, or in process. */
  bus?: EventBus;
  /** Where the SQL migrations are; found next to the sources or the bundle when omitted. */
  migrationsDir?: string;
}

export interface IdentityHandle {
  grpcPort: number;
  health: GrpcServerHandle;
  stop(): Promise<void>;
}

// tsx/jest run from apps/identity/src; the identity bundle has prisma/ beside it; the all-in-one
// bundle (apps/exchange) copies it to identity/prisma/.
function defaultMigrationsDir(): string {
  const candidates = [
    path.join(__dirname, '..', 'prisma', 'migrations'),
    path.join(__dirname, 'prisma', 'migrations'),
    path.join(__dirname, 'identity', 'prisma', 'migrations'),
  ];
  return candidates.find((dir) => fs.existsSync(dir)) ?? candidates[0];
}

/**
 * Starts the identity service: gRPC first (health NOT_SERVING), then migrations, event bus and
 * outbox relay; only then SERVING. `stop()` drains gRPC, flushes the outbox and closes pools.
 */
export async function startIdentity(config: IdentityConfig, deps: IdentityDeps): Promise<IdentityHandle> {
  const logger = deps.logger;
  const pool = createPgPool(config.DATABASE_URL, { max: 10, applicationName: 'identity', logger });
  const prisma = createIdentityPrisma(config.DATABASE_URL);
  let relay: OutboxRelay | undefined;
  const reader = new PgAgentReader(pool);
  const registry = config.REGISTRY_GRPC_URL ? new GrpcExchangeObjectStore(config.REGISTRY_GRPC_URL) : null;
  const aliases = new AliasService({ store: new PgAliasStore(pool), registry, agents: reader });
  const service = new AgentService({
    reader,
    writer: new PrismaAgentWriter(prisma, () => relay?.notify()),
    events: identityEvents,
    environment: config.EXCHANGE_ENV,
  });

  let grpc: GrpcServerHandle | undefined;
  let bus: EventBus | undefined;
  const ownsBus = deps.bus === undefined;
  const stop = async () => {
    await grpc?.shutdown();
    await relay?.stop();
    registry?.close();
    if (ownsBus) await bus?.close();
    await prisma.$disconnect();
    await pool.end();
  };

  try {
    grpc = await startIdentityGrpcServer({ service, aliases, logger, host: config.GRPC_HOST, port: config.GRPC_PORT });
    const { applied } = await runMigrations({
      connectionString: config.DATABASE_URL,
      migrationsDir: deps.migrationsDir ?? defaultMigrationsDir(),
      logger,
    });
    logger.info({ applied }, 'identity migrations done');
    bus = deps.bus ?? (await createEventBus({ natsUrl: config.NATS_URL, logger }));
    relay = new OutboxRelay({ pool, bus, logger });
    relay.start();
    grpc.setServing();
  } catch (err) {
    await stop().catch((cleanupErr) => logger.error({ err: cleanupErr }, 'identity cleanup after failed start failed'));
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return { grpcPort: grpc.port, health: grpc, stop: () => (stopping ??= stop()) };
}
