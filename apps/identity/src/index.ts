import type { EventBus } from '@exchange/events';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { findMigrationsDir, ServiceHost } from '@exchange/service-host';
import { IdentityConfigSchema, type IdentityConfig } from './config';
import { PgAgentReader } from './agents/agents.repo';
import { PgAliasStore } from './aliases/aliases.repo';
import { PrismaAgentWriter } from './agents/agent-writer.repo';
import { createIdentityPrisma } from './data/prisma';
import { AgentService } from './agents/agents.service';
import { AliasService } from './aliases/aliases.service';
import { identityEvents } from './agents/agents.events';
import { IDENTITY_SERVICE_NAME, registerIdentity } from './grpc/server';
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

/**
 * Starts the identity service on libs/service-host: gRPC (health NOT_SERVING), migrations, event
 * bus and outbox relay; only then SERVING. `stop()` drains gRPC, flushes the outbox and closes
 * the registry client, Prisma and the pool.
 */
export async function startIdentity(config: IdentityConfig, deps: IdentityDeps): Promise<IdentityHandle> {
  const host = new ServiceHost({
    name: 'identity',
    grpcServiceName: IDENTITY_SERVICE_NAME,
    config,
    logger: deps.logger,
    bus: deps.bus,
    migrationsDir: deps.migrationsDir ?? findMigrationsDir(__dirname, 'identity'),
  });
  const pool = host.pool({ max: 10 });
  const prisma = createIdentityPrisma(config.DATABASE_URL);
  host.onClose('prisma', () => prisma.$disconnect());
  const reader = new PgAgentReader(pool);
  const registry = config.REGISTRY_GRPC_URL ? new GrpcExchangeObjectStore(config.REGISTRY_GRPC_URL) : null;
  if (registry) host.onClose('registry client', () => registry.close());
  const aliases = new AliasService({ store: new PgAliasStore(pool), registry, agents: reader });
  const service = new AgentService({
    reader,
    writer: new PrismaAgentWriter(prisma, pool, host.notify),
    events: identityEvents,
    environment: config.EXCHANGE_ENV,
  });
  const running = await host.start({
    register: (server) => registerIdentity(server, { service, aliases }, deps.logger),
    outbox: pool,
  });
  return { grpcPort: running.grpcPort, health: running.health, stop: running.stop };
}
