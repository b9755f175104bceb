import { createServiceClient, parseAmount, type PromiseClient } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { createTestDatabase, startFakeIdentity, testLogger, type FakeAgent, type FakeIdentity, type TestDatabase } from '@exchange/testing';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { readWalletLedgerConfig, startWalletLedger } from '../../../src/index';

export type WalletClient = PromiseClient<typeof walletV1.WalletLedgerServiceService>;

// Under load on two shared cores a call can queue for seconds; a client-side deadline firing
// would leave the outcome unknown, so the load suites wait long.
export const LOAD_DEADLINE_MS = 60_000;

export function walletClient(address: string): WalletClient {
  return createServiceClient(walletV1.WalletLedgerServiceService, address, { defaultDeadlineMs: LOAD_DEADLINE_MS });
}

/** The environment every load suite gives wallet-ledger (no kill switch on, sandbox). */
export function baseLedgerEnv(databaseUrl: string, identityAddress: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    IDENTITY_GRPC_URL: identityAddress,
    EXCHANGE_SIGNING_KEY: randomBytes(32).toString('base64'),
    EXCHANGE_ENV: 'sandbox',
    LOG_LEVEL: 'silent',
    WALLET_KILL_SWITCHES: '',
  };
}

export interface Money {
  available: bigint;
  held: bigint;
}

export async function balanceOf(client: WalletClient, agentId: string, currency = 'CREDIT'): Promise<Money> {
  const res = await client.getBalance({ agentId });
  const b = res.balances.find((x) => x.currency === currency);
  return b ? { available: parseAmount(b.available), held: parseAmount(b.held) } : { available: 0n, held: 0n };
}

/** A real wallet-ledger in this process on a fresh database, with a fake identity beside it. */
export interface LoadLedger {
  db: TestDatabase;
  identity: FakeIdentity;
  address: string;
  client: WalletClient;
  /** Direct SQL, to read what the service stored (outbox rows). */
  sql: pg.Pool;
  /** Another client on its own channel (a separate "client" of the service). */
  newClient(): WalletClient;
  close(): Promise<void>;
}

export async function startLoadLedger(opts: { name: string; agents: FakeAgent[]; env?: Record<string, string> }): Promise<LoadLedger> {
  const db = await createTestDatabase(opts.name);
  const identity = await startFakeIdentity(opts.agents);
  const clients: WalletClient[] = [];
  let ledger: Awaited<ReturnType<typeof startWalletLedger>> | undefined;
  let sql: pg.Pool | undefined;
  const close = async () => {
    for (const c of clients.splice(0)) c.close();
    await ledger?.stop();
    await identity.close();
    await sql?.end();
    await db.drop();
  };
  try {
    // NATS_URL is left out on purpose: these suites must not publish into the shared EXCHANGE
    // stream; the NATS outage suite runs its own nats-server.
    const config = readWalletLedgerConfig({ ...baseLedgerEnv(db.url, identity.address), ...opts.env });
    ledger = await startWalletLedger(config, { logger: testLogger });
    sql = new pg.Pool({ connectionString: db.url, max: 2 });
    sql.on('error', () => undefined);
    const address = `127.0.0.1:${ledger.grpcPort}`;
    const newClient = () => {
      const c = walletClient(address);
      clients.push(c);
      return c;
    };
    return { db, identity, address, client: newClient(), sql, newClient, close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}

/** Asserts CheckLedger finds nothing wrong (the discrepancies are in the failure message). */
export async function expectLedgerConsistent(client: WalletClient): Promise<walletV1.CheckLedgerResponse> {
  const report = await client.checkLedger({});
  if (!report.ok || report.discrepancies.length > 0) {
    throw new Error(`CheckLedger found problems: ${JSON.stringify(walletV1.CheckLedgerResponse.toJSON(report))}`);
  }
  for (const [currency, sum] of Object.entries(report.globalSums)) {
    if (parseAmount(sum) !== 0n) throw new Error(`global sum of ${currency} is ${sum}`);
  }
  return report;
}
