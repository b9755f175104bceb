/**
 * Purchase-saga harness: commerce's database, a fake identity (real gRPC), a REAL wallet-ledger
 * process and a REAL sandbox merchant process (UCP over HTTP) on free ports. Commerce itself runs
 * in process (`inProcess`, default) or as a child process the kill tests start with
 * `spawnCommerce(env)` on a fixed port. Buyers are funded in USD through sandbox deposits;
 * mandates and ready sessions are written straight into commerce's database, the session mirroring
 * a real checkout created at the sandbox merchant (the checkout area owns that path normally).
 *
 *   const h = await startSagaHarness('saga');
 *   h.saga(faults?)               a PurchaseSaga on the harness's collaborators
 *   h.newBuyer('40')              agent id, funded with 40 USD
 *   h.insertMandate(buyer, {total: '100'})
 *   h.readySession(buyer, mandateId, [['pot_ceramic', 1]])   → {sessionId, total}
 *   h.usd(agentId) / h.merchantSettled()  balances in micro-units
 *   h.expectLedgerOk()            wallet CheckLedger ok
 */
import pg from 'pg';
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { findFreePortRange } from '@exchange/db';
import { AgentDirectory } from '@exchange/identity-client';
import { createServiceClient, errorInfoFromGrpc, newId, parseAmount, uuidv7, type GrpcErrorInfo, type PromiseClient } from '@exchange/platform';
import { commerceV1, identityV1, walletV1 } from '@exchange/proto';
import { createTestDatabase, spawnServiceProcess, startFakeIdentity, testLogger, type FakeIdentity, type ServiceProcess, type TestDatabase } from '@exchange/testing';
import { UcpMerchantClient, parseMerchantDirectory } from '../../src/clients/ucp-merchant.client';
import type { FaultPoint } from '../../src/domain/faults';
import { minorToMicro } from '../../src/domain/minor-units';
import { GENESIS_HASH } from '../../src/evidence/evidence-chain';
import { COMMERCE_SERVICE_NAME, readCommerceConfig, startCommerce, type CommerceHandle } from '../../src/index';
import { createPlatformIdentity } from '../../src/merchants/platform-identity';
import { PurchaseSaga, type PurchaseSagaDeps } from '../../src/saga/purchase.saga';
import { SANDBOX_DOMAIN, spawnSandboxMerchant, type SandboxMerchantProcess } from './saga-merchant';

export type CommerceClient = PromiseClient<typeof commerceV1.CommerceServiceService>;
export type WalletClient = PromiseClient<typeof walletV1.WalletLedgerServiceService>;

export interface SagaHarness {
  sql: pg.Pool;
  walletSql: pg.Pool;
  wallet: WalletClient;
  identity: FakeIdentity;
  merchant: SandboxMerchantProcess;
  /** In-process commerce (null in child-process mode). */
  commerce: CommerceHandle | null;
  /** The saga's collaborators (the harness's pool, wallet, merchant client, identity). */
  deps(faults?: FaultPoint[]): PurchaseSagaDeps;
  saga(faults?: FaultPoint[]): PurchaseSaga;
  newBuyer(fundUsd?: string): Promise<string>;
  insertMandate(buyer: string, opts: { total: string; perTransaction?: string }): Promise<string>;
  readySession(buyer: string, mandateId: string, items: Array<[string, number]>): Promise<{ sessionId: string; total: bigint; merchantCheckoutId: string }>;
  usd(agentId: string): Promise<{ available: bigint; held: bigint }>;
  merchantSettled(): Promise<bigint>;
  expectLedgerOk(): Promise<void>;
  /** Commerce as a child process (apps/commerce/src/main.ts) on the harness's fixed port, with `env` added. */
  spawnCommerce(env?: Record<string, string>): Promise<{ process: ServiceProcess; client: CommerceClient }>;
  close(): Promise<void>;
}

/** The error a call that must fail failed with (throws when it succeeded). */
export async function failureOf(p: Promise<unknown>): Promise<GrpcErrorInfo> {
  try {
    await p;
  } catch (err) {
    return errorInfoFromGrpc(err);
  }
  throw new Error('expected a failure');
}

const WALLET_SERVICE_NAME = 'exchange.wallet.v1.WalletLedgerService';
let agentSeq = 0;

export async function startSagaHarness(name: string, opts: { inProcess?: boolean } = {}): Promise<SagaHarness> {
  const [db, walletDb]: TestDatabase[] = await Promise.all([createTestDatabase(name), createTestDatabase(`${name}_wallet`)]);
  const identity = await startFakeIdentity([]);
  const seed = toBase64(generateKeyPair().privateKey);
  const ports = await findFreePortRange(3);
  const [walletPort, merchantPort, commercePort] = [ports, ports + 1, ports + 2];
  const walletProcess = await spawnServiceProcess({
    script: 'apps/wallet-ledger/src/main.ts',
    healthService: WALLET_SERVICE_NAME,
    port: walletPort,
    env: { DATABASE_URL: walletDb.url, IDENTITY_GRPC_URL: identity.address, EXCHANGE_SIGNING_KEY: seed, EXCHANGE_ENV: 'sandbox', LOG_LEVEL: 'silent', HOLD_SWEEP_INTERVAL_MS: '0', PAYOUT_PROCESSOR_INTERVAL_MS: '0', AGENT_CACHE_TTL_MS: '0' },
  });
  const merchant = await spawnSandboxMerchant(merchantPort);
  const directory = JSON.stringify({ [SANDBOX_DOMAIN]: merchant.url });
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    EXCHANGE_ENV: 'sandbox',
    IDENTITY_GRPC_URL: identity.address,
    WALLET_LEDGER_GRPC_URL: `127.0.0.1:${walletPort}`,
    MARKET_GRPC_URL: '127.0.0.1:1',
    WORKFLOWS_GRPC_URL: '127.0.0.1:1',
    EXCHANGE_SIGNING_KEY: seed,
    MERCHANT_DIRECTORY: directory,
    MERCHANT_TIMEOUT_MS: '5000',
    COMMERCE_RECOVERY_INTERVAL_MS: '0',
    AGENT_CACHE_TTL_MS: '0',
  };
  const commerce = opts.inProcess === false ? null : await startCommerce(readCommerceConfig({ ...env, GRPC_PORT: '0', GRPC_HOST: '127.0.0.1' }), { logger: testLogger });
  const sql = new pg.Pool({ connectionString: db.url, max: 12 });
  const walletSql = new pg.Pool({ connectionString: walletDb.url, max: 2 });
  sql.on('error', () => undefined);
  walletSql.on('error', () => undefined);
  const wallet: WalletClient = createServiceClient(walletV1.WalletLedgerServiceService, `127.0.0.1:${walletPort}`);
  const identityClient = createServiceClient(identityV1.IdentityServiceService, identity.address);
  const platform = createPlatformIdentity({ platformKeyJwk: undefined, exchangeSigningKey: Buffer.from(seed, 'base64'), publicUrl: 'http://127.0.0.1:8080' });
  const merchants = new UcpMerchantClient({ platform, directory: parseMerchantDirectory(directory), profileTtlMs: 60_000, timeoutMs: 5000, clock: () => new Date(), logger: testLogger });
  const agents = new AgentDirectory(identityClient, 0, testLogger);
  const spawned: Array<{ process: ServiceProcess; client: CommerceClient }> = [];

  const h: SagaHarness = {
    sql,
    walletSql,
    wallet,
    identity,
    merchant,
    commerce,
    deps: (faults = []) => ({ pool: sql, wallet, merchants, agents, clock: () => new Date(), logger: testLogger, notify: () => undefined, faults: new Set(faults) }),
    saga: (faults = []) => new PurchaseSaga(h.deps(faults)),
    async newBuyer(fundUsd) {
      const agentId = `test:agent:saga-${++agentSeq}-${uuidv7().slice(-8)}`;
      identity.put({ agentId, pubkeys: [toBase64(generateKeyPair().publicKey)] });
      if (fundUsd) {
        const { deposit } = await wallet.createDeposit({ agentId, amount: fundUsd, currency: 'USD', method: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX, idempotencyKey: `dep-${uuidv7()}` });
        await wallet.confirmDeposit({ agentId, depositId: deposit!.depositId, idempotencyKey: `conf-${uuidv7()}` });
      }
      return agentId;
    },
    async insertMandate(buyer, { total, perTransaction }) {
      const mandateId = newId('mdt');
      await sql.query(
        `INSERT INTO mandates (mandate_id, signer_agent_id, agent_id, scope_merchants, scope_categories, scope_skus, per_transaction, total_limit,
           currency, expires_at, signature, signed_payload, autonomy_mode)
         VALUES ($1, 'test:agent:signer', $2, '{}', '{}', '{}', $3, $4, 'USD', now() + interval '30 days', 'c2ln', '{}'::jsonb, 'autonomous')`,
        [mandateId, buyer, parseAmount(perTransaction ?? total).toString(), parseAmount(total).toString()],
      );
      return mandateId;
    },
    async readySession(buyer, mandateId, items) {
      const res = await merchant.call('POST', '/checkout-sessions', { line_items: items.map(([id, quantity]) => ({ item: { id }, quantity })), buyer: { email: 'buyer@example.com' } });
      if (res.status !== 201 || res.json.status !== 'ready_for_complete') throw new Error(`sandbox checkout not ready: ${res.status} ${JSON.stringify(res.json)}`);
      const checkout = res.json;
      const total = minorToMicro(checkout.totals.find((t: { type: string }) => t.type === 'total').amount, checkout.currency);
      const sessionId = newId('cs');
      await sql.query(
        `INSERT INTO checkout_sessions (commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, mode, status, merchant_checkout_id, currency,
           total, list_total, discount_codes, line_items, merchant_checkout, evidence_head)
         VALUES ($1, $2, $3, $4, 'live', 'ready_for_complete', $5, $6, $7, $7, '{}', $8::jsonb, $9::jsonb, $10)`,
        [sessionId, buyer, mandateId, SANDBOX_DOMAIN, checkout.id, checkout.currency, total.toString(), JSON.stringify(checkout.line_items), JSON.stringify(checkout), GENESIS_HASH],
      );
      return { sessionId, total, merchantCheckoutId: checkout.id };
    },
    async usd(agentId) {
      const { balances } = await wallet.getBalance({ agentId });
      const usd = balances.find((b) => b.currency === 'USD');
      return { available: parseAmount(usd?.available ?? '0'), held: parseAmount(usd?.held ?? '0') };
    },
    async merchantSettled() {
      const { rows } = await walletSql.query<{ balance: string }>('SELECT balance::text FROM accounts WHERE account_id = $1', [`merchant:${SANDBOX_DOMAIN}/USD/merchant_settlement`]);
      return BigInt(rows[0]?.balance ?? '0');
    },
    async expectLedgerOk() {
      const report = await wallet.checkLedger({});
      expect({ ok: report.ok, discrepancies: report.discrepancies }).toEqual({ ok: true, discrepancies: [] });
    },
    async spawnCommerce(extra = {}) {
      const proc = await spawnServiceProcess({ script: 'apps/commerce/src/main.ts', healthService: COMMERCE_SERVICE_NAME, port: commercePort, env: { ...env, ...extra }, startTimeoutMs: 60_000 });
      const entry = { process: proc, client: createServiceClient(commerceV1.CommerceServiceService, proc.address, { defaultDeadlineMs: 30_000 }) as CommerceClient };
      spawned.push(entry);
      return entry;
    },
    async close() {
      for (const s of spawned) {
        s.client.close();
        await s.process.stop().catch(() => undefined);
      }
      await commerce?.stop();
      wallet.close();
      identityClient.close();
      await walletProcess.stop();
      await merchant.stop();
      await identity.close();
      await sql.end();
      await walletSql.end();
      await Promise.all([db.drop(), walletDb.drop()]);
    },
  };
  return h;
}
