/**
 * Workflows in process on a fresh database with its peers faked on real gRPC servers: identity
 * (startFakeIdentity), wallet-ledger (GetBalance from `h.fund`), the registry (defaults) and the
 * market (fake-market.ts). Market events travel on the harness's bus (in process by default), so
 * the durable consumer is exercised as in production.
 *
 *   const h = await startRunsHarness('runs');
 *   const owner = h.newOwner('100');                 an agent with 100 CREDIT available
 *   const run = await h.client.createRun(…)          stage 0's contracts are posted
 *   await h.market.complete(contractId, '2')         award, deliver, settle (events)
 *   await h.until(() => …)                           waits for the consumer
 */
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { InProcessEventBus, type EventBus } from '@exchange/events';
import { createServiceClient, errorInfoFromGrpc, uuidv7, type PromiseClient } from '@exchange/platform';
import { marketV1, registryV1, walletV1, workflowsV1 } from '@exchange/proto';
import { createTestDatabase, startFakeIdentity, startProtoFake, testLogger, type FakeIdentity, type ProtoFake, type TestDatabase } from '@exchange/testing';
import pg from 'pg';
import type { EngineHooks } from '../../src/domain/ports';
import { readWorkflowsConfig, startWorkflows, type WorkflowsHandle } from '../../src/index';
import { startFakeMarket, type FakeMarket } from './fake-market';

export type WorkflowsClient = PromiseClient<typeof workflowsV1.WorkflowsServiceService>;

export const operator: workflowsV1.Actor = { agentId: '', operator: true };
export const asAgent = (agentId: string): workflowsV1.Actor => ({ agentId, operator: false });

export interface RunsHarness {
  db: TestDatabase;
  sql: pg.Pool;
  market: FakeMarket;
  wallet: ProtoFake;
  identity: FakeIdentity;
  bus: EventBus;
  client: WorkflowsClient;
  service: WorkflowsHandle;
  /** A new agent with `available` of `currency` in its wallet. */
  newOwner(available?: string, currency?: string): string;
  /** Stops the service (bus and peers stay). */
  stop(): Promise<void>;
  /** Stops the service (unless stopped) and starts it again on the same database. */
  restart(opts?: { hooks?: EngineHooks }): Promise<void>;
  /** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). */
  until<T>(check: () => Promise<T | undefined | null | false>, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Another bus than the in-process one (e.g. NATS). */
  bus?: EventBus;
  hooks?: EngineHooks;
  marketDurable?: string;
}

/** The x-error-code a call failed with, with its details. */
export async function failure(call: Promise<unknown>): Promise<{ code: string; details?: Record<string, unknown> }> {
  try {
    await call;
  } catch (err) {
    const info = errorInfoFromGrpc(err);
    return { code: info.code, details: info.details };
  }
  throw new Error('expected the call to fail');
}

let ownerSeq = 0;

export async function startRunsHarness(name: string, opts: HarnessOptions = {}): Promise<RunsHarness> {
  const db = await createTestDatabase(name);
  const bus: EventBus = opts.bus ?? new InProcessEventBus({ logger: testLogger, retryBaseMs: 20, retryMaxMs: 200 });
  const identity = await startFakeIdentity([]);
  const balances = new Map<string, Map<string, string>>();
  const wallet = await startProtoFake(walletV1.WalletLedgerServiceService, {
    getBalance: (req) => ({
      agentId: req.agentId,
      balances: [...(balances.get(req.agentId) ?? new Map<string, string>()).entries()].map(([currency, available]) => ({ currency, available, held: '0', total: available })),
      asOf: new Date(),
    }),
  });
  const registry = await startProtoFake(registryV1.RegistryServiceService);
  const market = await startFakeMarket(() => bus);
  const config = readWorkflowsConfig({
    DATABASE_URL: db.url,
    GRPC_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    EXCHANGE_ENV: 'sandbox',
    MARKET_GRPC_URL: market.address,
    WALLET_LEDGER_GRPC_URL: wallet.address,
    IDENTITY_GRPC_URL: identity.address,
    REGISTRY_GRPC_URL: registry.address,
    EXCHANGE_SIGNING_KEY: toBase64(generateKeyPair().privateKey),
    WORKFLOWS_RECOVERY_INTERVAL_MS: '0',
    AGENT_CACHE_TTL_MS: '0',
  });
  const sql = new pg.Pool({ connectionString: db.url, max: 3 });
  sql.on('error', () => undefined);

  const h = { db, sql, market, wallet, identity, bus } as RunsHarness;
  let running = false;
  const start = async (hooks?: EngineHooks) => {
    h.service = await startWorkflows(config, { logger: testLogger, bus, engineHooks: hooks, marketDurable: opts.marketDurable });
    h.client = createServiceClient(workflowsV1.WorkflowsServiceService, `127.0.0.1:${h.service.grpcPort}`, { defaultDeadlineMs: 30_000 });
    running = true;
  };
  h.stop = async () => {
    if (!running) return;
    running = false;
    h.client.close();
    await h.service.stop();
  };
  await start(opts.hooks);
  h.newOwner = (available = '1000', currency = 'CREDIT') => {
    const agentId = `test:agent:owner-${++ownerSeq}-${uuidv7().slice(-8)}`;
    identity.put({ agentId, pubkeys: [toBase64(generateKeyPair().publicKey)] });
    balances.set(agentId, new Map([[currency, available]]));
    return agentId;
  };
  h.restart = async (o = {}) => {
    await h.stop();
    await start(o.hooks);
  };
  h.until = async <T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  h.close = async () => {
    await h.stop();
    await Promise.all([market.stop(), wallet.stop(), registry.stop(), identity.close()]);
    if (!opts.bus) await bus.close();
    await sql.end();
    await db.drop();
  };
  return h;
}

/** One stage spec: `shards` contracts of `budget` CREDIT each. */
export function stageSpec(name: string, shards: number, budget = '10', currency = 'CREDIT'): workflowsV1.StageSpec {
  return {
    name,
    shards,
    contract: {
      title: `${name} work`,
      description: 'shard work',
      tags: ['test'],
      budget: { amount: budget, currency },
      verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_BUYER,
      acceptanceCriteria: 'done',
      deadlineSeconds: 3600,
    },
  };
}
