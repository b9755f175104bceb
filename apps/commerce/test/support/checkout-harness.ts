/**
 * Checkout test harness: commerce in process on its own database, a fake identity (real gRPC,
 * agents with ed25519 keys), a REAL sandbox merchant process (UCP over HTTP, reached through
 * MERCHANT_DIRECTORY) and mandates created through the CreateMandate RPC. Wallet-ledger is not
 * called before a complete: its address is a closed port, unless `{ wallet: true }` spawns a real
 * one (its own database) for the complete tests.
 *
 *   const h = await startCheckoutHarness();
 *   h.client                              commerce gRPC client
 *   h.newAgent()                          TestAgent registered in the fake identity
 *   h.mandate(signer, buyer, over?)       mandate id (signed CreateMandate; scope sandbox-merchant.local)
 *   h.create(buyer, mandateId, over?)     CreateCheckout with two roses and a buyer email
 *   h.signApproval(signer, session, decision)   base64 signature of the approval payload
 *   h.sql / h.outbox(subjectId?) / h.evidence(sessionId)
 *   h.fundUsd(agentId, '100') / h.usd(agentId)   sandbox deposit / balance (with `{ wallet: true }`)
 */
import pg from 'pg';
import { generateKeyPair, sign, toBase64 } from '@exchange/crypto';
import { findFreePortRange } from '@exchange/db';
import { createServiceClient, parseAmount, uuidv7, type PromiseClient } from '@exchange/platform';
import { commerceV1, walletV1 } from '@exchange/proto';
import { createTestDatabase, spawnServiceProcess, startFakeIdentity, testLogger, type FakeIdentity, type ServiceProcess, type TestDatabase } from '@exchange/testing';
import { approvalMessage, approvalPayload, type ApprovalDecision } from '../../src/checkout/approval';
import { readCommerceConfig, startCommerce, type CommerceHandle } from '../../src/index';
import { mandateSignedPayload, mandateSigningBytes } from '../../src/mandates/mandate-signing';
import { SANDBOX_DOMAIN, spawnSandboxMerchant, type SandboxMerchantProcess } from './saga-merchant';

export { SANDBOX_DOMAIN } from './saga-merchant';
export type CommerceClient = PromiseClient<typeof commerceV1.CommerceServiceService>;

export interface TestAgent {
  agentId: string;
  privateKey: Uint8Array;
}

export interface CheckoutHarness {
  client: CommerceClient;
  commerce: CommerceHandle;
  identity: FakeIdentity;
  merchant: SandboxMerchantProcess;
  sql: pg.Pool;
  newAgent(prefix?: string): TestAgent;
  mandate(signer: TestAgent, buyer: TestAgent, over?: Partial<commerceV1.CreateMandateRequest>): Promise<string>;
  create(buyer: TestAgent, mandateId: string, over?: Partial<commerceV1.CreateCheckoutRequest>): Promise<commerceV1.CreateCheckoutResponse>;
  signApproval(signer: TestAgent, s: commerceV1.CheckoutSession, decision: ApprovalDecision): string;
  outbox(subjectId?: string): Promise<Array<{ type: string; data: any }>>;
  evidence(sessionId: string): Promise<Array<{ seq: number; kind: string; operation: string; prev_hash: string; hash: string; content: any }>>;
  fundUsd(agentId: string, amount: string): Promise<void>;
  usd(agentId: string): Promise<{ available: bigint; held: bigint }>;
  close(): Promise<void>;
}

export const agentActor = (agent: TestAgent | string) => ({ agentId: typeof agent === 'string' ? agent : agent.agentId, operator: false });
export const operatorActor = { agentId: '', operator: true };
export const roses = (quantity = 2) => JSON.stringify([{ item: { id: 'bouquet_roses' }, quantity }]);
export const BUYER_JSON = JSON.stringify({ email: 'buyer@example.com' });

let seq = 0;

/** `origins`: the market and workflows addresses a checkout origin is checked against (default: a closed port). */
export async function startCheckoutHarness(opts: { wallet?: boolean; origins?: { market: string; workflows: string } } = {}): Promise<CheckoutHarness> {
  const db: TestDatabase = await createTestDatabase('commerce_checkout');
  const identity = await startFakeIdentity([]);
  const ports = await findFreePortRange(2);
  const merchant = await spawnSandboxMerchant(ports);
  const seed = toBase64(generateKeyPair().privateKey);
  let walletDb: TestDatabase | null = null;
  let walletProcess: ServiceProcess | null = null;
  if (opts.wallet) {
    walletDb = await createTestDatabase('commerce_checkout_wallet');
    walletProcess = await spawnServiceProcess({
      script: 'apps/wallet-ledger/src/main.ts',
      healthService: 'exchange.wallet.v1.WalletLedgerService',
      port: ports + 1,
      env: { DATABASE_URL: walletDb.url, IDENTITY_GRPC_URL: identity.address, EXCHANGE_SIGNING_KEY: seed, EXCHANGE_ENV: 'sandbox', LOG_LEVEL: 'silent', HOLD_SWEEP_INTERVAL_MS: '0', PAYOUT_PROCESSOR_INTERVAL_MS: '0', AGENT_CACHE_TTL_MS: '0' },
    });
  }
  const walletAddress = opts.wallet ? `127.0.0.1:${ports + 1}` : '127.0.0.1:1';
  const wallet = createServiceClient(walletV1.WalletLedgerServiceService, walletAddress);
  const config = readCommerceConfig({
    DATABASE_URL: db.url,
    GRPC_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    EXCHANGE_ENV: 'sandbox',
    IDENTITY_GRPC_URL: identity.address,
    WALLET_LEDGER_GRPC_URL: walletAddress,
    MARKET_GRPC_URL: opts.origins?.market ?? '127.0.0.1:1',
    WORKFLOWS_GRPC_URL: opts.origins?.workflows ?? '127.0.0.1:1',
    EXCHANGE_SIGNING_KEY: seed,
    MERCHANT_DIRECTORY: JSON.stringify({ [SANDBOX_DOMAIN]: merchant.url }),
    COMMERCE_RECOVERY_INTERVAL_MS: '0',
    AGENT_CACHE_TTL_MS: '0',
  });
  const commerce = await startCommerce(config, { logger: testLogger });
  const client: CommerceClient = createServiceClient(commerceV1.CommerceServiceService, `127.0.0.1:${commerce.grpcPort}`);
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  sql.on('error', () => undefined);

  return {
    client,
    commerce,
    identity,
    merchant,
    sql,
    newAgent: (prefix = 'agt') => {
      const keys = generateKeyPair();
      const agentId = `${prefix}_${process.pid}_${++seq}`;
      identity.put({ agentId, pubkeys: [toBase64(keys.publicKey)] });
      return { agentId, privateKey: keys.privateKey };
    },
    async mandate(signer, buyer, over = {}) {
      const req = commerceV1.CreateMandateRequest.fromPartial({
        actor: agentActor(signer),
        signerAgentId: signer.agentId,
        agentId: buyer.agentId,
        scopeMerchants: [SANDBOX_DOMAIN],
        scopeCategories: [],
        scopeSkus: [],
        perTransaction: '500',
        totalLimit: '1000',
        currency: 'USD',
        expiresAt: new Date(Date.now() + 7 * 86_400_000),
        autonomy: { mode: commerceV1.AutonomyMode.AUTONOMY_MODE_AUTONOMOUS, approvalForNewMerchants: false },
        ...over,
      });
      const payload = mandateSignedPayload({
        signerAgentId: req.signerAgentId,
        agentId: req.agentId,
        scope: { merchants: req.scopeMerchants, categories: req.scopeCategories, skus: req.scopeSkus },
        limits: { perTransaction: req.perTransaction, total: req.totalLimit, currency: req.currency },
        expiresAt: req.expiresAt ?? new Date(0),
      });
      const { mandate } = await client.createMandate({ ...req, signature: toBase64(sign(mandateSigningBytes(payload), signer.privateKey)) });
      return mandate!.mandateId;
    },
    create: (buyer, mandateId, over = {}) =>
      client.createCheckout(
        commerceV1.CreateCheckoutRequest.fromPartial({
          actor: agentActor(buyer),
          buyerAgentId: buyer.agentId,
          mandateId,
          merchantDomain: SANDBOX_DOMAIN,
          lineItemsJson: roses(),
          buyerJson: BUYER_JSON,
          ...over,
        }),
      ),
    signApproval: (signer, s, decision) =>
      toBase64(sign(approvalMessage(approvalPayload({ commerceSessionId: s.commerceSessionId, total: parseAmount(s.total), currency: s.currency }, decision, signer.agentId)), signer.privateKey)),
    async outbox(subjectId) {
      const { rows } = await sql.query(
        `SELECT type, payload FROM outbox_events WHERE $1::text IS NULL OR payload->>'subject_id' = $1 ORDER BY created_at, id`,
        [subjectId ?? null],
      );
      return rows.map((r) => ({ type: r.type, data: r.payload.data }));
    },
    async evidence(sessionId) {
      const { rows } = await sql.query('SELECT seq, kind, operation, prev_hash, hash, content FROM evidence WHERE commerce_session_id = $1 ORDER BY seq', [sessionId]);
      return rows;
    },
    async fundUsd(agentId, amount) {
      const { deposit } = await wallet.createDeposit({ agentId, amount, currency: 'USD', method: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX, idempotencyKey: `dep-${uuidv7()}` });
      await wallet.confirmDeposit({ agentId, depositId: deposit!.depositId, idempotencyKey: `conf-${uuidv7()}` });
    },
    async usd(agentId) {
      const { balances } = await wallet.getBalance({ agentId });
      const usd = balances.find((b) => b.currency === 'USD');
      return { available: parseAmount(usd?.available ?? '0'), held: parseAmount(usd?.held ?? '0') };
    },
    async close() {
      client.close();
      wallet.close();
      await sql.end();
      await commerce.stop();
      await merchant.stop();
      await walletProcess?.stop();
      await identity.close();
      await db.drop();
      await walletDb?.drop();
    },
  };
}
