/**
 * Market test harness: a fake identity (real gRPC, in-memory agents), a REAL wallet-ledger
 * spawned from apps/wallet-ledger/src/main.ts on its own database (the module-boundary rule keeps
 * market's code from importing another app), and market started in process on its own database,
 * with the in-process event bus. Workers are off (intervals 0): tests drive `market.workers`.
 *
 * API (kept stable; helper C's fault/concurrency tests use it):
 *   const h = await startMarketHarness({ name?, env?, agentCacheTtlMs? });
 *   h.client                       market gRPC client (PromiseClient of MarketService)
 *   h.wallet                       wallet-ledger gRPC client
 *   h.market                       MarketHandle (workers.sweep(), workers.recover(), stop())
 *   h.identity                     FakeIdentity (put/freeze agents)
 *   h.bus                          the in-process event bus the market uses (publish other services' events)
 *   h.clock                        { now(): Date; advance(ms): void }  the market's clock
 *   h.operator(name?)              CallOptions for an operator ("operator:ops")
 *   h.as(agent | agentId)          CallOptions for an agent acting as itself
 *   h.newAgent(prefix?)            TestAgent {agentId, privateKey, publicKey} registered in identity
 *   h.fund(agentId, amount)        faucet credit (CREDIT; several grants when above the daily cap)
 *   h.balances(agentId)            { available, held } of CREDIT as decimal strings ("0" when none)
 *   h.feesBalance()                the wallet's fees account (CREDIT) as a decimal string
 *   h.signReport(agent, report)    base64 ed25519 signature of a verification report
 *   h.marketSql / h.walletSql      pg pools on the two databases (assert what was stored)
 *   h.outbox(subjectId?)           market outbox events {type, data} oldest first
 *   h.stopWallet() / h.startWallet()   take wallet-ledger down and up again (same port)
 *   h.restartMarket(env?)          stop and start the in-process market (same database)
 *   h.spawnMarket(env?)            market as a separate process (entry apps/market/src/main.ts)
 *                                  on the same database: { process: ServiceProcess, client }
 *   h.stopMarket()                 stop the in-process market (e.g. before spawning one)
 *   h.close()
 * Helpers: grpcError(promise) → GrpcErrorInfo of a call that must fail; contractInput(),
 * offerInput() defaults for requests; fixtures `openContract`, `awardedContract` for common setups.
 */
import pg from 'pg';
import { generateKeyPair, sign, toBase64 } from '@exchange/crypto';
import { findFreePortRange } from '@exchange/db';
import { createEventBus, type EventBus } from '@exchange/events';
import { createServiceClient, formatAmount, uuidv7, type CallOptions, type PromiseClient } from '@exchange/platform';
import { marketV1, walletV1 } from '@exchange/proto';
import {
  createTestDatabase,
  spawnServiceProcess,
  startFakeIdentity,
  testLogger,
  type FakeIdentity,
  type ServiceProcess,
  type TestDatabase,
} from '@exchange/testing';
import { MARKET_SERVICE_NAME, readMarketConfig, startMarket, type MarketConfig, type MarketHandle } from '../src/index';
import { reportSigningPayload } from '../src/domain/verification';
import { contractInput, offerInput } from './market-requests';
import type { Verdict, VerificationCheck } from '../src/domain/model';

export { contractInput, grpcError, offerInput } from './market-requests';

export type MarketClient = PromiseClient<typeof marketV1.MarketServiceService>;
export type WalletClient = PromiseClient<typeof walletV1.WalletLedgerServiceService>;

export interface TestAgent {
  agentId: string;
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

export interface MarketHarness {
  client: MarketClient;
  wallet: WalletClient;
  market: MarketHandle;
  config: MarketConfig;
  identity: FakeIdentity;
  bus: EventBus;
  clock: { now(): Date; advance(ms: number): void };
  marketDb: TestDatabase;
  walletDb: TestDatabase;
  marketSql: pg.Pool;
  walletSql: pg.Pool;
  walletAddress: string;
  operator(name?: string): CallOptions;
  as(agent: TestAgent | string): CallOptions;
  newAgent(prefix?: string): TestAgent;
  fund(agentId: string, amount: string): Promise<void>;
  balances(agentId: string): Promise<{ available: string; held: string }>;
  feesBalance(): Promise<string>;
  signReport(agent: TestAgent, report: { verifierId: string; resultId: string; verdict: Verdict; score: number; checks: VerificationCheck[] }): string;
  outbox(subjectId?: string): Promise<Array<{ type: string; data: any }>>;
  stopWallet(): Promise<void>;
  startWallet(): Promise<void>;
  restartMarket(env?: Record<string, string>): Promise<MarketHandle>;
  stopMarket(): Promise<void>;
  spawnMarket(env?: Record<string, string>): Promise<{ process: ServiceProcess; client: MarketClient }>;
  close(): Promise<void>;
}

const WALLET_SERVICE_NAME = 'exchange.wallet.v1.WalletLedgerService';
const FAUCET_GRANT_MAX = 200; // the wallet's daily faucet cap per category, in CREDIT

let agentSeq = 0;

export async function startMarketHarness(opts: { name?: string; env?: Record<string, string> } = {}): Promise<MarketHarness> {
  const name = opts.name ?? 'market';
  const [marketDb, walletDb] = await Promise.all([createTestDatabase(name), createTestDatabase(`${name}_wallet`)]);
  const identity = await startFakeIdentity([]);
  const signingKey = toBase64(generateKeyPair().privateKey);
  const ports = await findFreePortRange(2);
  const walletPort = ports;
  const spawnedMarketPort = ports + 1;
  const walletAddress = `127.0.0.1:${walletPort}`;
  const walletEnv = {
    DATABASE_URL: walletDb.url,
    IDENTITY_GRPC_URL: identity.address,
    EXCHANGE_SIGNING_KEY: signingKey,
    EXCHANGE_ENV: 'sandbox',
    LOG_LEVEL: 'silent',
    HOLD_SWEEP_INTERVAL_MS: '0',
    PAYOUT_PROCESSOR_INTERVAL_MS: '0',
    AGENT_CACHE_TTL_MS: '0',
  };
  const spawnWallet = () =>
    spawnServiceProcess({ script: 'apps/wallet-ledger/src/main.ts', healthService: WALLET_SERVICE_NAME, port: walletPort, env: walletEnv });
  let walletProcess: ServiceProcess | null = await spawnWallet();

  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs), advance: (ms: number) => void (offsetMs += ms) };
  const bus: EventBus = await createEventBus({ logger: testLogger });
  const baseEnv = (env: Record<string, string> = {}): Record<string, string> => ({
    DATABASE_URL: marketDb.url,
    GRPC_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    EXCHANGE_ENV: 'sandbox',
    IDENTITY_GRPC_URL: identity.address,
    WALLET_LEDGER_GRPC_URL: walletAddress,
    MARKET_SWEEP_INTERVAL_MS: '0',
    MARKET_RECOVERY_INTERVAL_MS: '0',
    AGENT_CACHE_TTL_MS: '0',
    ...opts.env,
    ...env,
  });
  const start = (env?: Record<string, string>) => {
    const config = readMarketConfig(baseEnv(env));
    return { config, started: startMarket(config, { logger: testLogger, bus, clock: clock.now }) };
  };
  const first = start();
  const marketSql = new pg.Pool({ connectionString: marketDb.url, max: 2 });
  const walletSql = new pg.Pool({ connectionString: walletDb.url, max: 2 });
  marketSql.on('error', () => undefined);
  walletSql.on('error', () => undefined);
  const wallet: WalletClient = createServiceClient(walletV1.WalletLedgerServiceService, walletAddress);
  const spawned: Array<{ process: ServiceProcess; client: MarketClient }> = [];
  let marketRunning = true;

  const h: MarketHarness = {
    market: await first.started,
    config: first.config,
    client: undefined as unknown as MarketClient,
    wallet,
    identity,
    bus,
    clock,
    marketDb,
    walletDb,
    marketSql,
    walletSql,
    walletAddress,
    operator: (n = 'ops') => ({ actor: `operator:${n}` }),
    as: (agent) => {
      const id = typeof agent === 'string' ? agent : agent.agentId;
      return { actor: `agent:${id}`, agentId: id };
    },
    newAgent(prefix = 'agent') {
      const keys = generateKeyPair();
      const agentId = `test:${prefix}:${++agentSeq}-${uuidv7().slice(-8)}`;
      identity.put({ agentId, pubkeys: [toBase64(keys.publicKey)] });
      return { agentId, privateKey: keys.privateKey, publicKey: keys.publicKey };
    },
    async fund(agentId, amount) {
      // The faucet grants at most 200 CREDIT per category and day: spread bigger amounts.
      let left = Number(amount);
      let i = 0;
      while (left > 0) {
        const grant = Math.min(left, FAUCET_GRANT_MAX);
        await wallet.faucet({ agentId, amount: String(grant), currency: 'CREDIT', category: `testing-${i++}`, idempotencyKey: `fund-${uuidv7()}` });
        left -= grant;
      }
    },
    async balances(agentId) {
      const res = await wallet.getBalance({ agentId });
      const credit = res.balances.find((b) => b.currency === 'CREDIT');
      return { available: credit?.available ?? '0', held: credit?.held ?? '0' };
    },
    async feesBalance() {
      const { rows } = await walletSql.query<{ balance: string }>(`SELECT balance::text FROM accounts WHERE kind = 'fees' AND currency = 'CREDIT'`);
      const micro = rows.reduce((sum, r) => sum + BigInt(r.balance), 0n);
      // System accounts hold the opposite sign of what agents paid in; report the magnitude.
      return formatAmount(micro < 0n ? -micro : micro);
    },
    signReport(agent, report) {
      return toBase64(sign(Buffer.from(reportSigningPayload(report), 'utf8'), agent.privateKey));
    },
    async outbox(subjectId) {
      const { rows } = await marketSql.query<{ type: string; payload: { data: unknown } }>(
        `SELECT type, payload FROM outbox_events WHERE $1::text IS NULL OR payload->>'subject_id' = $1 ORDER BY created_at, id`,
        [subjectId ?? null],
      );
      return rows.map((r) => ({ type: r.type, data: r.payload.data }));
    },
    async stopWallet() {
      await walletProcess?.stop();
      walletProcess = null;
    },
    async startWallet() {
      if (!walletProcess) walletProcess = await spawnWallet();
    },
    async stopMarket() {
      if (!marketRunning) return;
      h.client.close();
      await h.market.stop();
      marketRunning = false;
    },
    async restartMarket(env) {
      await h.stopMarket();
      const next = start(env);
      h.config = next.config;
      h.market = await next.started;
      h.client = clientFor(h.market.grpcPort);
      marketRunning = true;
      return h.market;
    },
    async spawnMarket(env = {}) {
      const e = baseEnv(env);
      delete e['GRPC_PORT'];
      delete e['GRPC_HOST'];
      const proc = await spawnServiceProcess({ script: 'apps/market/src/main.ts', healthService: MARKET_SERVICE_NAME, port: spawnedMarketPort, env: e });
      const entry = { process: proc, client: createServiceClient(marketV1.MarketServiceService, proc.address) };
      spawned.push(entry);
      return entry;
    },
    async close() {
      for (const s of spawned) {
        s.client.close();
        await s.process.stop().catch(() => undefined);
      }
      await h.stopMarket();
      wallet.close();
      await walletProcess?.stop();
      await bus.close();
      await identity.close();
      await marketSql.end();
      await walletSql.end();
      await marketDb.drop();
      await walletDb.drop();
    },
  };
  h.client = clientFor(h.market.grpcPort);
  return h;
}

function clientFor(port: number): MarketClient {
  return createServiceClient(marketV1.MarketServiceService, `127.0.0.1:${port}`);
}

const HOUR = 3_600_000;

/** An open contract of a fresh buyer (funded with `fund`) and a submitted offer of a fresh seller. */
export async function openContract(
  h: MarketHarness,
  opts: { fund?: string; price?: string; budget?: string; contract?: Partial<marketV1.CreateContractRequest> } = {},
) {
  const buyer = h.newAgent('buyer');
  const seller = h.newAgent('seller');
  if (opts.fund !== '0') await h.fund(buyer.agentId, opts.fund ?? '150');
  const { contract } = await h.client.createContract(
    contractInput({ budget: { amount: opts.budget ?? '100', currency: 'CREDIT' }, ...opts.contract }),
    h.as(buyer),
  );
  // An eta after the deadline is refused (invalid_eta): short-deadline contracts get eta = deadline.
  const eta = new Date(Math.min(Date.now() + 12 * HOUR, contract!.deadline!.getTime()));
  const { offer } = await h.client.submitOffer(offerInput(contract!.contractId, { price: { amount: opts.price ?? '100', currency: 'CREDIT' }, eta }), h.as(seller));
  return { buyer, seller, contract: contract!, offer: offer! };
}

/** An awarded contract (escrow held) — see openContract. */
export async function awardedContract(h: MarketHarness, opts: Parameters<typeof openContract>[1] = {}) {
  const open = await openContract(h, opts);
  const res = await h.client.awardOffer({ contractId: open.contract.contractId, offerId: open.offer.offerId, idempotencyKey: '' }, h.operator());
  return { ...open, contract: res.contract!, offer: res.offer! };
}
