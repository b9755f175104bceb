import { signCanonical, toBase64, generateKeyPair } from '@exchange/crypto';
import { findFreePortRange } from '@exchange/db';
import { createServiceClient, errorInfoFromGrpc, parseAmount, type CallOptions, type PromiseClient } from '@exchange/platform';
import { marketV1, walletV1 } from '@exchange/proto';
import { createTestDatabase, spawnServiceProcess, startFakeIdentity, type FakeIdentity, type ServiceProcess, type TestDatabase } from '@exchange/testing';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

// The market and wallet-ledger as separate OS processes (their real entry points), each on its
// own database, with a fake identity in this process: what the fault suite needs to kill the
// market mid-saga and restart it, and what the concurrency suite uses to race real calls.
// Reads go through gRPC; SQL only to count what the services stored (holds, receipts, steps).

export type MarketClient = PromiseClient<typeof marketV1.MarketServiceService>;
export type WalletClient = PromiseClient<typeof walletV1.WalletLedgerServiceService>;

const MARKET_HEALTH = 'exchange.market.v1.MarketService';
const WALLET_HEALTH = 'exchange.wallet.v1.WalletLedgerService';
export const OPERATOR: CallOptions = { actor: 'operator:fault-suite' };
export const asAgent = (agentId: string): CallOptions => ({ actor: `agent:${agentId}`, agentId });

export interface RigAgent {
  agentId: string;
  privateKey: Uint8Array;
}

export interface MarketRig {
  identity: FakeIdentity;
  market: MarketClient;
  wallet: WalletClient;
  marketSql: pg.Pool;
  walletSql: pg.Pool;
  marketProcess(): ServiceProcess;
  /** (Re)starts the market process on the same port and database with `env` added (e.g. MARKET_FAULT_INJECTION). */
  startMarket(env?: Record<string, string>): Promise<ServiceProcess>;
  /** Resolves once the market process has exited on its own (no signal from the test); throws after `timeoutMs`. */
  marketDied(timeoutMs?: number): Promise<void>;
  agent(name: string): RigAgent;
  fund(agentId: string, amount: string): Promise<void>;
  balance(agentId: string): Promise<{ available: bigint; held: bigint }>;
  close(): Promise<void>;
}

export async function startMarketRig(name: string): Promise<MarketRig> {
  const [marketDb, walletDb]: TestDatabase[] = [await createTestDatabase(`${name}_market`), await createTestDatabase(`${name}_wallet`)];
  const identity = await startFakeIdentity();
  // Below the ephemeral range: the port is still free when the market restarts on it.
  const base = await findFreePortRange(2);
  const walletProc = await spawnServiceProcess({
    script: 'apps/wallet-ledger/src/main.ts',
    healthService: WALLET_HEALTH,
    port: base,
    env: {
      DATABASE_URL: walletDb.url,
      IDENTITY_GRPC_URL: identity.address,
      EXCHANGE_SIGNING_KEY: randomBytes(32).toString('base64'),
      EXCHANGE_ENV: 'sandbox',
      LOG_LEVEL: 'warn',
      WALLET_KILL_SWITCHES: '',
    },
  });
  const marketPort = base + 1;
  const marketEnv = {
    DATABASE_URL: marketDb.url,
    IDENTITY_GRPC_URL: identity.address,
    WALLET_LEDGER_GRPC_URL: walletProc.address,
    EXCHANGE_ENV: 'sandbox',
    LOG_LEVEL: 'warn',
    // The start-up pass finishes interrupted steps; no timer, so each test sees the start-up pass alone.
    MARKET_RECOVERY_INTERVAL_MS: '0',
    MARKET_SWEEP_INTERVAL_MS: '0',
  };
  let proc: ServiceProcess | undefined;
  const startMarket = async (env: Record<string, string> = {}) => {
    proc = await spawnServiceProcess({ script: 'apps/market/src/main.ts', healthService: MARKET_HEALTH, port: marketPort, env: { ...marketEnv, ...env } });
    return proc;
  };
  const market = createServiceClient(marketV1.MarketServiceService, `127.0.0.1:${marketPort}`, { defaultDeadlineMs: 30_000 });
  const wallet = createServiceClient(walletV1.WalletLedgerServiceService, walletProc.address, { defaultDeadlineMs: 30_000 });
  const marketSql = new pg.Pool({ connectionString: marketDb.url, max: 2 });
  const walletSql = new pg.Pool({ connectionString: walletDb.url, max: 2 });
  marketSql.on('error', () => undefined);
  walletSql.on('error', () => undefined);
  const run = randomBytes(3).toString('hex');

  return {
    identity,
    market,
    wallet,
    marketSql,
    walletSql,
    marketProcess: () => {
      if (!proc) throw new Error('market not started');
      return proc;
    },
    startMarket,
    async marketDied(timeoutMs = 20_000) {
      const pid = proc?.pid;
      if (!pid) throw new Error('market not started');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          process.kill(pid, 0);
        } catch {
          return; // gone
        }
        if (Date.now() > deadline) throw new Error(`market process ${pid} still alive after ${timeoutMs} ms:\n${proc?.stderr()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    agent(label: string) {
      const { privateKey, publicKey } = generateKeyPair();
      const agentId = `fault-${run}:agent:${label}`;
      identity.put({ agentId, pubkeys: [toBase64(publicKey)] });
      return { agentId, privateKey };
    },
    async fund(agentId: string, amount: string) {
      await wallet.faucet({ agentId, amount, currency: 'CREDIT', category: `rig-${randomBytes(3).toString('hex')}`, idempotencyKey: `fund-${randomBytes(8).toString('hex')}` });
    },
    async balance(agentId: string) {
      const res = await wallet.getBalance({ agentId });
      const b = res.balances.find((x) => x.currency === 'CREDIT');
      return b ? { available: parseAmount(b.available), held: parseAmount(b.held) } : { available: 0n, held: 0n };
    },
    async close() {
      market.close();
      wallet.close();
      await proc?.stop();
      await walletProc.stop();
      await marketSql.end();
      await walletSql.end();
      await identity.close();
      await marketDb.drop();
      await walletDb.drop();
    },
  };
}

/** The signature a verifier (or buyer) puts on a report: canonical JSON of the signed fields. */
export function signReport(privateKey: Uint8Array, r: { verifierId: string; resultId: string; verdict: 'pass' | 'fail'; score: number; checks: Array<{ name: string; ok: boolean; detail?: string }> }): string {
  return signCanonical({ verifier_id: r.verifierId, result_id: r.resultId, verdict: r.verdict, score: r.score, checks: r.checks }, privateKey);
}

/** The gRPC error code (x-error-code, else the status name) of a rejected call, or 'ok'. */
export async function outcomeOf<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string; grpcCode: number }> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    const info = errorInfoFromGrpc(err);
    return { ok: false, code: info.code, grpcCode: info.grpcCode };
  }
}

/** A contract (budget 100 CREDIT, deadline in a day) created by `buyer` through the market. */
export async function createContract(market: MarketClient, buyer: RigAgent, extra: Partial<marketV1.CreateContractRequest> = {}): Promise<marketV1.Contract> {
  const res = await market.createContract(
    {
      buyerId: buyer.agentId,
      title: 'Fault suite work',
      description: '',
      tags: [],
      budget: { amount: '100', currency: 'CREDIT' },
      deadline: new Date(Date.now() + 86_400_000),
      acceptanceCriteria: 'done',
      verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_BUYER,
      verifierId: undefined,
      listingId: undefined,
      idempotencyKey: '',
      ...extra,
    },
    asAgent(buyer.agentId),
  );
  return res.contract!;
}

export async function submitOffer(market: MarketClient, contractId: string, seller: RigAgent, price: string): Promise<marketV1.Offer> {
  const res = await market.submitOffer(
    { contractId, sellerId: seller.agentId, price: { amount: price, currency: 'CREDIT' }, eta: new Date(Date.now() + 3_600_000), terms: '', idempotencyKey: '' },
    asAgent(seller.agentId),
  );
  return res.offer!;
}

/** CheckLedger of wallet-ledger: ok and no discrepancy. */
export async function expectLedgerOk(wallet: WalletClient): Promise<void> {
  const report = await wallet.checkLedger({});
  expect({ ok: report.ok, discrepancies: report.discrepancies }).toEqual({ ok: true, discrepancies: [] });
}

export async function countRows(sql: pg.Pool, query: string, params: unknown[]): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(query, params);
  return rows[0].n;
}
