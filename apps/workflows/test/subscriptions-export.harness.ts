/**
 * Workflows in process on a fresh database, for the subscription and export tests: the registry
 * is a proto fake (overrides per test), the other peers are never called here. The clock is the
 * harness's (`h.advance(ms)`), so leases expire without waiting.
 *
 *   const h = await startHarness({ exportCasefile });   h.client.createSubscription(…)
 *   const runId = await h.seedRun(owner);               await h.record([{ type: 'task.posted', … }])
 *   await h.restart();                                   same database, new process state
 */
import { generateKeyPair, publicKeyFromPrivate, toBase64 } from '@exchange/crypto';
import { withTransaction } from '@exchange/db';
import { createServiceClient, errorInfoFromGrpc, newId, type PromiseClient } from '@exchange/platform';
import { registryV1, workflowsV1 } from '@exchange/proto';
import { createTestDatabase, startProtoFake, testLogger, type ProtoFake, type ProtoFakeOverrides, type TestDatabase } from '@exchange/testing';
import pg from 'pg';
import { readWorkflowsConfig, startWorkflows, type WorkflowsHandle } from '../src/index';
import type { TaskEventInput, TaskEventRecord } from '../src/task-events/task-event';
import { recordTaskEvent } from '../src/task-events/task-events.repo';

export type WorkflowsClient = PromiseClient<typeof workflowsV1.WorkflowsServiceService>;

export const operator: workflowsV1.Actor = { agentId: '', operator: true };
export const agent = (agentId: string): workflowsV1.Actor => ({ agentId, operator: false });

export interface Harness {
  db: TestDatabase;
  sql: pg.Pool;
  registry: ProtoFake;
  client: WorkflowsClient;
  exchangeSeed: Uint8Array;
  exchangePublicKey: string;
  /** Moves the service's clock forward. */
  advance(ms: number): void;
  restart(): Promise<void>;
  close(): Promise<void>;
  /** A run row (completed, CREDIT: the engine's recovery leaves it alone) owned by `owner`; returns its id. */
  seedRun(owner: string, over?: { workflowRunId?: string }): Promise<string>;
  /** Appends the events in ONE transaction, in order, as the run engine does. */
  record(inputs: TaskEventInput[]): Promise<TaskEventRecord[]>;
}

/** The grpc error code (`x-error-code`) a call failed with. */
export async function failureCode(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    return errorInfoFromGrpc(err).code;
  }
  throw new Error('expected the call to fail');
}

export async function startHarness(name: string, registryOverrides: ProtoFakeOverrides<typeof registryV1.RegistryServiceService> = {}): Promise<Harness> {
  const db = await createTestDatabase(name);
  const registry = await startProtoFake(registryV1.RegistryServiceService, registryOverrides);
  const exchangeSeed = generateKeyPair().privateKey;
  let now = new Date('2026-11-25T12:00:00.000Z');
  const config = readWorkflowsConfig({
    DATABASE_URL: db.url,
    GRPC_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    EXCHANGE_ENV: 'sandbox',
    // Nothing here calls market, wallet-ledger or identity: any address will do.
    MARKET_GRPC_URL: registry.address,
    WALLET_LEDGER_GRPC_URL: registry.address,
    IDENTITY_GRPC_URL: registry.address,
    REGISTRY_GRPC_URL: registry.address,
    EXCHANGE_SIGNING_KEY: toBase64(exchangeSeed),
    WORKFLOWS_RECOVERY_INTERVAL_MS: '0',
  });
  const sql = new pg.Pool({ connectionString: db.url, max: 3 });
  sql.on('error', () => undefined);
  let service: WorkflowsHandle | null = null;
  let client: WorkflowsClient | null = null;
  const start = async () => {
    service = await startWorkflows(config, { logger: testLogger, clock: () => now });
    client = createServiceClient(workflowsV1.WorkflowsServiceService, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 30_000 });
  };
  const stop = async () => {
    client?.close();
    client = null;
    await service?.stop();
    service = null;
  };
  await start();
  return {
    db,
    sql,
    registry,
    get client() {
      if (client === null) throw new Error('the service is stopped');
      return client;
    },
    exchangeSeed,
    exchangePublicKey: toBase64(publicKeyFromPrivate(exchangeSeed)),
    advance: (ms) => {
      now = new Date(now.getTime() + ms);
    },
    restart: async () => {
      await stop();
      await start();
    },
    close: async () => {
      await stop();
      await sql.end();
      await registry.stop();
      await db.drop();
    },
    seedRun: async (owner, over = {}) => {
      const id = over.workflowRunId ?? newId('run');
      await sql.query(
        `INSERT INTO workflow_runs (workflow_run_id, template, owner_agent_id, status, input_refs, max_shard_attempts, currency, budget)
         VALUES ($1, 'test', $2, 'completed', '{}', 3, 'CREDIT', 1000000)`,
        [id, owner],
      );
      return id;
    },
    record: (inputs) =>
      withTransaction(sql, async (tx) => {
        const out: TaskEventRecord[] = [];
        for (const input of inputs) out.push(await recordTaskEvent(tx, input));
        return out;
      }),
  };
}
