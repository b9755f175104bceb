import type { EventBus, Subscription } from '@exchange/events';
import { fromBase64, publicKeyFromPrivate, toBase64 } from '@exchange/crypto';
import { AgentDirectory } from '@exchange/identity-client';
import { readConfig, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { identityV1, marketV1, registryV1, walletV1 } from '@exchange/proto';
import { findMigrationsDir, ServiceHost } from '@exchange/service-host';
import { faultPointOf, WorkflowsConfigSchema, type FaultPoint, type WorkflowsConfig } from './config';
import { WORKFLOWS_SERVICE_NAME, registerWorkflows } from './grpc/server';
import type { EngineHooks } from './domain/ports';
import { engineOf } from './runs/run-engine.service';
import type { WorkflowsRuntime } from './service/runtime';
import { startMarketConsumer } from './tasks/market-events.handlers';
import { recoverRuns } from './workers/run-recovery';

export { WorkflowsConfigSchema, type WorkflowsConfig } from './config';
export { WORKFLOWS_SERVICE_NAME } from './grpc/server';
export { TASK_EVENT_TYPES } from './task-events/task-event';

/** Typed configuration from environment variables; throws ConfigError naming the bad variable. */
export function readWorkflowsConfig(env: Record<string, string | undefined> = process.env): WorkflowsConfig {
  return readConfig(WorkflowsConfigSchema, env);
}

export interface WorkflowsDeps {
  logger: Logger;
  /** Shared bus (all-in-one launcher); otherwise one is created from NATS_URL, or in process. */
  bus?: EventBus;
  /** Where the SQL migrations are; found next to the sources or the bundle when omitted. */
  migrationsDir?: string;
  /** Test hook: the service's clock (default: the system clock). */
  clock?: () => Date;
  /** Test hook: crash points of the run engine (default: WORKFLOWS_FAULT_INJECTION's, if set). */
  engineHooks?: EngineHooks;
  /** Test hook: the market consumer's durable name (default WORKFLOWS_MARKET_DURABLE), for tests sharing a NATS server. */
  marketDurable?: string;
}

export interface WorkflowsHandle {
  grpcPort: number;
  health: GrpcServerHandle;
  /** One recovery round now (postings and cancels of any age); returns how much it handled. */
  recover(): Promise<number>;
  stop(): Promise<void>;
}

/** Postings younger than this are left to the request or event still making them (periodic rounds only). */
const RECOVERY_MIN_AGE_MS = 5_000;

/**
 * Starts workflows on libs/service-host: gRPC (health NOT_SERVING), migrations, event bus and
 * outbox relay, the market contract consumer and a recovery round; only then SERVING. `stop()`
 * drains gRPC, stops the recovery worker and the consumer, then flushes the outbox.
 */
export async function startWorkflows(config: WorkflowsConfig, deps: WorkflowsDeps): Promise<WorkflowsHandle> {
  const logger = deps.logger;
  const host = new ServiceHost({
    name: 'workflows',
    grpcServiceName: WORKFLOWS_SERVICE_NAME,
    config,
    logger,
    bus: deps.bus,
    migrationsDir: deps.migrationsDir ?? findMigrationsDir(__dirname, 'workflows'),
  });
  const clock = deps.clock ?? (() => new Date());
  const pool = host.pool({ max: config.WORKFLOWS_DB_POOL_MAX });
  const identity = host.client(identityV1.IdentityServiceService, config.IDENTITY_GRPC_URL, { defaultDeadlineMs: 2_000 });
  const market = host.client(marketV1.MarketServiceService, config.MARKET_GRPC_URL, { defaultDeadlineMs: 10_000 });
  const wallet = host.client(walletV1.WalletLedgerServiceService, config.WALLET_LEDGER_GRPC_URL, { defaultDeadlineMs: 5_000 });
  const registry = host.client(registryV1.RegistryServiceService, config.REGISTRY_GRPC_URL, { defaultDeadlineMs: 30_000 });
  const signingKey = fromBase64(config.EXCHANGE_SIGNING_KEY);
  const runtime: WorkflowsRuntime = {
    pool,
    agents: new AgentDirectory(identity, config.AGENT_CACHE_TTL_MS, logger),
    market,
    wallet,
    registry,
    exchangeSigner: { privateKey: signingKey, publicKey: toBase64(publicKeyFromPrivate(signingKey)) },
    clock,
    logger,
    notify: host.notify,
    engineHooks: deps.engineHooks ?? crashHooks(faultPointOf(config), logger),
  };
  const engine = engineOf(runtime);
  const recover = (minAgeMs: number) => recoverRuns({ pool, clock, engine }, minAgeMs);
  host.periodic('run-recovery', config.WORKFLOWS_RECOVERY_INTERVAL_MS, () => recover(RECOVERY_MIN_AGE_MS));
  let consumer: Subscription | undefined;
  host.onStop('market consumer', () => consumer?.stop());
  const running = await host.start({
    register: (server) => registerWorkflows(server, runtime, logger),
    outbox: pool,
    beforeServing: async ({ bus }) => {
      consumer = await startMarketConsumer({ bus, pool, market, engine, logger, durable: deps.marketDurable ?? config.WORKFLOWS_MARKET_DURABLE });
      // Whatever a crash left half posted is finished before we serve.
      const recovered = await recover(0);
      if (recovered > 0) logger.info({ recovered }, 'workflow runs recovered at start');
    },
  });
  return { grpcPort: running.grpcPort, health: running.health, recover: () => recover(0), stop: running.stop };
}

/**
 * WORKFLOWS_FAULT_INJECTION as engine hooks (kill tests): SIGKILL at the crash point — no shutdown
 * hook, no answer to the caller, no outbox flush, no JetStream ack — so the restarted process must
 * finish the run from what was stored.
 */
function crashHooks(point: FaultPoint | null, logger: Logger): EngineHooks | undefined {
  const kill = async (details: Record<string, unknown>): Promise<void> => {
    logger.warn({ fault: point, ...details }, 'fault injection: killing the process');
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => undefined); // never returns: the process is gone
  };
  if (point === 'after_first_post') return { afterContractPosted: (task) => kill({ task_id: task.taskId, workflow_run_id: task.workflowRunId }) };
  if (point === 'after_stage_commit') return { afterStageCommitted: (tasks) => kill({ workflow_run_id: tasks[0].workflowRunId, stage: tasks[0].stageName }) };
  return undefined;
}
