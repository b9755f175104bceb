import pg from 'pg';
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { createEventBus, type EventBus, type EventEnvelope } from '@exchange/events';
import { createServiceClient, errorInfoFromGrpc, type GrpcErrorInfo, type PromiseClient } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { createTestDatabase, startFakeIdentity, testLogger, type FakeAgent, type FakeIdentity, type TestDatabase } from '@exchange/testing';
import { readWalletLedgerConfig, startWalletLedger, type WalletLedgerConfig, type WalletLedgerHandle } from '../src/index';

export type WalletClient = PromiseClient<typeof walletV1.WalletLedgerServiceService>;

/**
 * A real wallet-ledger (gRPC on an ephemeral port) on a fresh database, a fake identity (real
 * gRPC, in-memory agents) and the in-process bus. Workers are off (intervals 0) and the identity
 * cache is off unless `env` says otherwise; tests run worker rounds by hand.
 */
export interface TestWallet {
  db: TestDatabase;
  identity: FakeIdentity;
  wallet: WalletLedgerHandle;
  client: WalletClient;
  config: WalletLedgerConfig;
  /** Direct SQL access, to assert what the service stored (outbox rows, balances). */
  sql: pg.Pool;
  published: EventEnvelope[];
  signerPublicKey: string;
  restart(env?: Record<string, string>): Promise<WalletLedgerHandle>;
  close(): Promise<void>;
}

export async function startTestWallet(
  opts: { agents?: FakeAgent[]; env?: Record<string, string>; name?: string; clock?: () => Date } = {},
): Promise<TestWallet> {
  const db = await createTestDatabase(opts.name ?? 'wallet');
  const identity = await startFakeIdentity(opts.agents ?? []);
  const bus: EventBus = await createEventBus({ logger: testLogger });
  const published: EventEnvelope[] = [];
  const subscription = await bus.subscribe({
    durable: 'wallet-test',
    subjects: ['exchange.wallet.>'],
    handler: async (event) => {
      published.push(event);
    },
  });
  const keys = generateKeyPair();
  const configFor = (env: Record<string, string> = {}) =>
    readWalletLedgerConfig({
      DATABASE_URL: db.url,
      GRPC_PORT: '0',
      GRPC_HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      IDENTITY_GRPC_URL: identity.address,
      EXCHANGE_SIGNING_KEY: toBase64(keys.privateKey),
      HOLD_SWEEP_INTERVAL_MS: '0',
      PAYOUT_PROCESSOR_INTERVAL_MS: '0',
      AGENT_CACHE_TTL_MS: '0',
      ...opts.env,
      ...env,
    });
  const config = configFor();
  const start = (c: WalletLedgerConfig) => startWalletLedger(c, { logger: testLogger, bus, clock: opts.clock });
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  sql.on('error', () => undefined); // an idle assertion connection dropping is not a test failure
  const harness: TestWallet = {
    db,
    identity,
    config,
    wallet: await start(config),
    client: undefined as unknown as WalletClient,
    sql,
    published,
    signerPublicKey: toBase64(keys.publicKey),
    async restart(env) {
      harness.client.close();
      await harness.wallet.stop();
      harness.config = configFor(env);
      harness.wallet = await start(harness.config);
      harness.client = clientFor(harness.wallet);
      return harness.wallet;
    },
    async close() {
      harness.client.close();
      await harness.wallet.stop();
      await subscription.stop();
      await bus.close();
      await identity.close();
      await sql.end();
      await db.drop();
    },
  };
  harness.client = clientFor(harness.wallet);
  return harness;
}

function clientFor(wallet: WalletLedgerHandle): WalletClient {
  return createServiceClient(walletV1.WalletLedgerServiceService, `127.0.0.1:${wallet.grpcPort}`);
}

/** The error a call failed with, as the gateway sees it; fails the test when the call succeeded. */
export async function grpcError(call: Promise<unknown>): Promise<GrpcErrorInfo> {
  try {
    await call;
  } catch (err) {
    return errorInfoFromGrpc(err);
  }
  throw new Error('expected the call to fail');
}

/** Outbox rows (type + data) about one agent, oldest first. */
export async function outboxOf(sql: pg.Pool, agentId: string): Promise<Array<{ type: string; data: any }>> {
  const { rows } = await sql.query<{ type: string; payload: EventEnvelope }>(
    `SELECT type, payload FROM outbox_events WHERE payload->>'subject_id' = $1 ORDER BY created_at, id`,
    [agentId],
  );
  return rows.map((r) => ({ type: r.type, data: r.payload.data }));
}

/** { currency: { available, held } } of an agent, read through GetBalance. */
export async function balancesOf(client: WalletClient, agentId: string): Promise<Record<string, { available: string; held: string }>> {
  const res = await client.getBalance({ agentId });
  return Object.fromEntries(res.balances.map((b) => [b.currency, { available: b.available, held: b.held }]));
}

let seq = 0;
/** A fresh, unique agent id per call (tests share a database per file). */
export function agentId(name = 'a'): string {
  seq += 1;
  return `test:agent:${name}-${process.pid}-${seq}`;
}

let keySeq = 0;
export function key(): string {
  keySeq += 1;
  return `key-${Date.now()}-${keySeq}`;
}

let categorySeq = 0;
/** Faucet credits into a wallet (a fresh category each time, so the daily cap never interferes). */
export async function fund(client: WalletClient, agent: string, amount: string): Promise<void> {
  categorySeq += 1;
  await client.faucet({ agentId: agent, amount, currency: 'CREDIT', category: `fund-${categorySeq}`, idempotencyKey: key() });
}

/** Outbox rows of one type, oldest first. */
export async function outboxOfType(sql: pg.Pool, type: string): Promise<Array<{ subject: string; data: any }>> {
  const { rows } = await sql.query<{ payload: EventEnvelope }>(`SELECT payload FROM outbox_events WHERE type = $1 ORDER BY created_at, id`, [type]);
  return rows.map((r) => ({ subject: r.payload.subject_id, data: r.payload.data }));
}

export async function outboxCount(sql: pg.Pool): Promise<number> {
  const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_events');
  return rows[0].n;
}
