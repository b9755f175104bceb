/**
 * Workflows as its own process (tsx apps/workflows/src/main.ts) on a fresh database, its peers
 * faked in the test process on real gRPC servers: identity (startFakeIdentity), wallet-ledger
 * (GetBalance from `newOwner`), the registry (defaults) and the market (../../support/fake-market.ts),
 * whose contract events go through the real NATS server to the child's durable consumer.
 *
 *   const rig = await startProcessRig('wf_fault', natsUrl);
 *   const owner = rig.newOwner('100');
 *   const child = await rig.spawn({ WORKFLOWS_FAULT_INJECTION: 'after_stage_commit' });
 *   await child.client.createRun(…)            fails UNAVAILABLE: the child killed itself
 *   await rig.died(child)                       waits until the process is gone
 */
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { findFreePort } from '@exchange/db';
import { createNatsEventBus, type NatsEventBus } from '@exchange/events';
import { createServiceClient, uuidv7 } from '@exchange/platform';
import { registryV1, walletV1, workflowsV1 } from '@exchange/proto';
import { createTestDatabase, deleteDurableConsumer, spawnServiceProcess, startFakeIdentity, startProtoFake, testLogger, type FakeIdentity, type ProtoFake, type ServiceProcess, type TestDatabase } from '@exchange/testing';
import pg from 'pg';
import { WORKFLOWS_SERVICE_NAME } from '../../../src/index';
import { startFakeMarket, type FakeMarket } from '../../support/fake-market';
import type { WorkflowsClient } from '../../support/runs-harness';

export interface WorkflowsChild {
  process: ServiceProcess;
  client: WorkflowsClient;
  /** SIGTERM (a clean stop) and close the client. */
  stop(): Promise<void>;
}

export interface ProcessRig {
  db: TestDatabase;
  sql: pg.Pool;
  market: FakeMarket;
  /** A new agent with `available` CREDIT in its wallet. */
  newOwner(available?: string): string;
  /** Workflows as a child process on the rig's database and port, with `env` added. */
  spawn(env?: Record<string, string>): Promise<WorkflowsChild>;
  /** Resolves once the child's process is gone on its own (a fault point's SIGKILL). */
  died(child: WorkflowsChild, timeoutMs?: number): Promise<void>;
  until<T>(check: () => Promise<T | undefined | null | false>, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

let ownerSeq = 0;

export async function startProcessRig(name: string, natsUrl: string): Promise<ProcessRig> {
  const db = await createTestDatabase(name);
  const bus: NatsEventBus = await createNatsEventBus({ natsUrl, logger: testLogger, connectionName: `${name}-test` });
  const identity: FakeIdentity = await startFakeIdentity([]);
  const balances = new Map<string, string>();
  const wallet: ProtoFake = await startProtoFake(walletV1.WalletLedgerServiceService, {
    getBalance: (req) => {
      const available = balances.get(req.agentId) ?? '0';
      return { agentId: req.agentId, balances: [{ currency: 'CREDIT', available, held: '0', total: available }], asOf: new Date() };
    },
  });
  const registry = await startProtoFake(registryV1.RegistryServiceService);
  const market = await startFakeMarket(() => bus);
  const port = await findFreePort();
  // The child's own durable: other workflows services on this NATS server keep theirs.
  const durable = `workflows-market-kill-${uuidv7().slice(-12)}`;
  const env = {
    DATABASE_URL: db.url,
    NATS_URL: natsUrl,
    EXCHANGE_ENV: 'sandbox',
    LOG_LEVEL: 'warn',
    MARKET_GRPC_URL: market.address,
    WALLET_LEDGER_GRPC_URL: wallet.address,
    IDENTITY_GRPC_URL: identity.address,
    REGISTRY_GRPC_URL: registry.address,
    EXCHANGE_SIGNING_KEY: toBase64(generateKeyPair().privateKey),
    // Only the start-up recovery round: the tests prove that one finishes what the crash cut.
    WORKFLOWS_RECOVERY_INTERVAL_MS: '0',
    WORKFLOWS_MARKET_DURABLE: durable,
    AGENT_CACHE_TTL_MS: '0',
  };
  const sql = new pg.Pool({ connectionString: db.url, max: 3 });
  sql.on('error', () => undefined);
  const children = new Set<WorkflowsChild>();

  const rig: ProcessRig = {
    db,
    sql,
    market,
    newOwner(available = '1000') {
      const agentId = `test:agent:owner-${++ownerSeq}-${uuidv7().slice(-8)}`;
      identity.put({ agentId, pubkeys: [toBase64(generateKeyPair().publicKey)] });
      balances.set(agentId, available);
      return agentId;
    },
    async spawn(extra = {}) {
      const proc = await spawnServiceProcess({ script: 'apps/workflows/src/main.ts', healthService: WORKFLOWS_SERVICE_NAME, port, env: { ...env, ...extra } });
      const client = createServiceClient(workflowsV1.WorkflowsServiceService, proc.address, { defaultDeadlineMs: 30_000 });
      const child: WorkflowsChild = {
        process: proc,
        client,
        async stop() {
          children.delete(child);
          client.close();
          await proc.stop();
        },
      };
      children.add(child);
      return child;
    },
    async died(child, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          process.kill(child.process.pid, 0);
        } catch {
          break; // gone
        }
        if (Date.now() > deadline) throw new Error(`workflows ${child.process.pid} still alive:\n${child.process.stderr()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      children.delete(child);
      child.client.close();
      await child.process.crash(); // anything of its process group left behind
    },
    async until(check, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await check();
        if (value) return value;
        if (Date.now() > deadline) throw new Error('condition not met in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      for (const child of [...children]) await child.stop();
      await Promise.all([market.stop(), wallet.stop(), registry.stop(), identity.close()]);
      await bus.close();
      // The durable is this rig's alone: removed so the server does not keep it forever.
      await deleteDurableConsumer(natsUrl, durable);
      await sql.end();
      await db.drop();
    },
  };
  return rig;
}
