import type { Server } from '@grpc/grpc-js';
import type pg from 'pg';
import { createPgPool, runMigrations } from '@exchange/db';
import { createEventBus, OutboxRelay, pruneOutbox, pruneProcessedEvents, type EventBus } from '@exchange/events';
import {
  createServiceClient,
  Periodic,
  startGrpcServer,
  type GrpcServerHandle,
  type Logger,
  type PromiseClient,
} from '@exchange/platform';
import { hoursToMs, type ServiceBaseConfig } from './service-config';

type ServiceDefinition = Parameters<typeof createServiceClient>[0];

/** Kept beyond the bus's history before a processed-event record goes: NATS and PostgreSQL clocks differ. */
const CLOCK_SKEW_MARGIN_MS = 3_600_000;

export interface ServiceHostOptions {
  /** Short name for logs and pool application names, e.g. `wallet-ledger`. */
  name: string;
  /** Fully qualified gRPC service name reported by grpc.health.v1, e.g. `exchange.wallet.v1.WalletLedgerService`. */
  grpcServiceName: string;
  config: ServiceBaseConfig;
  logger: Logger;
  /** The shared bus of the all-in-one launcher; otherwise one is created from NATS_URL (in process when unset) and closed at stop. */
  bus?: EventBus;
  /** The service's SQL migrations (see findMigrationsDir). */
  migrationsDir: string;
  /** Largest gRPC message either way (default gRPC's 4 MiB). */
  maxMessageBytes?: number;
  /** How often old outbox rows and processed-event records are deleted (default 10 s). */
  pruneIntervalMs?: number;
}

export interface ServiceStartPlan {
  /** Adds the service's gRPC services to the server (health is already there). */
  register(server: Server): void;
  /** The pool the outbox relay reads. */
  outbox: pg.Pool;
  /** After migrations, before the bus: persisted controls, storage back-ends. */
  afterMigrations?(): Promise<void>;
  /** With the bus and the relay running, before SERVING: consumers, recovery passes. */
  beforeServing?(ctx: { bus: EventBus }): Promise<void>;
}

export interface RunningService {
  grpcPort: number;
  health: GrpcServerHandle;
  bus: EventBus;
  /** Idempotent: drains gRPC, stops workers and consumers, flushes the outbox, closes what the host opened. */
  stop(): Promise<void>;
}

interface Step {
  name: string;
  run: () => Promise<void> | void;
}

/**
 * The start-up skeleton every service shares (docs/adding-a-service.md). A service's index
 * declares what it has — pools, clients, periodic workers, hooks — and `start` runs the one
 * order: gRPC bound with health NOT_SERVING → migrations → afterMigrations → event bus → outbox
 * relay → beforeServing → periodic workers → SERVING. `stop` runs the reverse: gRPC drain (health
 * NOT_SERVING first), workers, stop hooks, relay flush, the bus it created, then clients and pools
 * (last opened, first closed). A failed start cleans up the same way and rethrows.
 */
export class ServiceHost {
  private readonly resources: Step[] = [];
  private readonly stopHooks: Step[] = [];
  private readonly periodics: Periodic[] = [];
  private relay: OutboxRelay | undefined;
  private grpc: GrpcServerHandle | undefined;
  private bus: EventBus | undefined;
  private stopping: Promise<void> | undefined;
  private started = false;

  constructor(private readonly opts: ServiceHostOptions) {}

  get logger(): Logger {
    return this.opts.logger;
  }

  /** Wakes the outbox relay after a commit (a no-op until the relay runs). */
  readonly notify = (): void => this.relay?.notify();

  /** A PostgreSQL pool on DATABASE_URL, ended at stop. */
  pool(opts: { max: number; applicationName?: string }): pg.Pool {
    const pool = createPgPool(this.opts.config.DATABASE_URL, {
      max: opts.max,
      applicationName: opts.applicationName ?? this.opts.name,
      logger: this.opts.logger,
    });
    this.onClose(`pool ${opts.applicationName ?? this.opts.name}`, () => pool.end());
    return pool;
  }

  /** A unary client of another service, closed at stop. */
  client<D extends ServiceDefinition>(definition: D, address: string, opts: { defaultDeadlineMs?: number } = {}): PromiseClient<D> {
    const client = createServiceClient(definition, address, opts);
    this.onClose(`client ${address}`, () => client.close());
    return client;
  }

  /** A worker run every `intervalMs` (0 = never by timer), started just before SERVING. */
  periodic(name: string, intervalMs: number, round: () => Promise<number>): Periodic {
    const periodic = new Periodic(name, intervalMs, round, this.opts.logger);
    this.periodics.push(periodic);
    return periodic;
  }

  /** Runs at stop after the workers, before the outbox flush (consumers, in-flight work). */
  onStop(name: string, run: () => Promise<void> | void): void {
    this.stopHooks.push({ name, run });
  }

  /** Closes a resource at stop, after the bus (clients, Prisma, stores); last registered, first closed. */
  onClose(name: string, run: () => Promise<void> | void): void {
    this.resources.push({ name, run });
  }

  async start(plan: ServiceStartPlan): Promise<RunningService> {
    if (this.started) throw new Error(`${this.opts.name}: ServiceHost.start called twice`);
    this.started = true;
    const { config, logger } = this.opts;
    try {
      this.grpc = await startGrpcServer({
        name: this.opts.grpcServiceName,
        host: config.GRPC_HOST,
        port: config.GRPC_PORT,
        logger,
        register: plan.register,
        maxMessageBytes: this.opts.maxMessageBytes,
      });
      const { applied } = await runMigrations({ connectionString: config.DATABASE_URL, migrationsDir: this.opts.migrationsDir, logger });
      logger.info({ applied }, `${this.opts.name} migrations done`);
      await plan.afterMigrations?.();
      this.bus = this.opts.bus ?? (await createEventBus({ natsUrl: config.NATS_URL, logger, maxAgeMs: hoursToMs(config.EVENTS_RETENTION_HOURS) }));
      this.relay = new OutboxRelay({ pool: plan.outbox, bus: this.bus, logger });
      this.relay.start();
      this.pruneEventTablesEvery(plan.outbox, this.bus);
      await plan.beforeServing?.({ bus: this.bus });
      for (const periodic of this.periodics) periodic.start();
      this.grpc.setServing();
    } catch (err) {
      await this.stop().catch((cleanupErr: unknown) => logger.error({ err: cleanupErr }, `${this.opts.name} cleanup after failed start failed`));
      throw err;
    }
    const grpc = this.grpc;
    const bus = this.bus;
    return { grpcPort: grpc.port, health: grpc, bus, stop: () => this.stop() };
  }

  /**
   * Published outbox rows are deleted once OUTBOX_RETENTION_HOURS old (0 keeps them), and
   * processed-event records once the bus can no longer deliver their events (its history, the
   * stream's EVENTS_RETENTION_HOURS, plus an hour for clock skew between NATS and PostgreSQL;
   * never while it keeps events for ever), by workers like the service's own: every service gets
   * them, none has to remember them. A round deletes at most 50,000 rows of a table, so at the
   * default interval it keeps up with about 5,000 events/s.
   */
  private pruneEventTablesEvery(pool: pg.Pool, bus: EventBus): void {
    const intervalMs = this.opts.pruneIntervalMs ?? 10_000;
    const outboxMs = hoursToMs(this.opts.config.OUTBOX_RETENTION_HOURS);
    if (outboxMs !== undefined && outboxMs > 0) this.periodic('outbox prune', intervalMs, () => pruneOutbox(pool, { olderThanMs: outboxMs }));
    this.periodic('processed events prune', intervalMs, async () => {
      const historyMs = await bus.historyMs();
      return Number.isFinite(historyMs) ? pruneProcessedEvents(pool, { olderThanMs: historyMs + CLOCK_SKEW_MARGIN_MS }) : 0;
    });
  }

  /** Idempotent; every step runs even when an earlier one failed (the first error is rethrown). */
  stop(): Promise<void> {
    this.stopping ??= this.runStop();
    return this.stopping;
  }

  private async runStop(): Promise<void> {
    const steps: Step[] = [
      { name: 'grpc', run: () => this.grpc?.shutdown() },
      { name: 'workers', run: async () => void (await Promise.all(this.periodics.map((p) => p.stop()))) },
      ...this.stopHooks,
      { name: 'outbox relay', run: () => this.relay?.stop() },
      { name: 'event bus', run: () => (this.opts.bus === undefined ? this.bus?.close() : undefined) },
      ...[...this.resources].reverse(),
    ];
    let firstError: unknown;
    for (const step of steps) {
      try {
        await step.run();
      } catch (err) {
        firstError ??= err;
        this.opts.logger.error({ err, step: step.name }, `${this.opts.name} stop step failed`);
      }
    }
    if (firstError !== undefined) throw firstError;
  }
}
