/**
 * Evidence-area harness: commerce started in process on its own database, with a fake identity
 * (real gRPC) and a REAL wallet-ledger spawned from apps/wallet-ledger/src/main.ts on its own
 * database. Sessions, mandates, evidence and purchases are written straight into commerce's
 * database (the checkout area owns their normal writing), evidence through appendEvidence so the
 * chain and the session head move as checkout moves them.
 *
 *   const h = await startEvidenceHarness();
 *   h.client                        commerce gRPC client
 *   h.sql                           pg pool on commerce's database
 *   h.exchangePublicKey             base64 key the dockets are signed with
 *   h.insertSession({buyer?, evidence?, purchase?}) → {sessionId, buyerAgentId, mandateId}
 *   h.appendItems(sessionId, n)     n more evidence items (merchant request/response pairs)
 *   h.close()
 */
import pg from 'pg';
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { findFreePortRange } from '@exchange/db';
import { createServiceClient, newId, type PromiseClient } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { createTestDatabase, spawnServiceProcess, startFakeIdentity, testLogger, type FakeIdentity, type ServiceProcess, type TestDatabase } from '@exchange/testing';
import { withTransaction } from '@exchange/db';
import { appendEvidence } from '../../src/evidence/evidence.repo';
import { GENESIS_HASH } from '../../src/evidence/evidence-chain';
import { readCommerceConfig, startCommerce, type CommerceHandle } from '../../src/index';
import { evidenceInputs } from './evidence-fixtures';

export type CommerceClient = PromiseClient<typeof commerceV1.CommerceServiceService>;

export interface EvidenceHarness {
  client: CommerceClient;
  sql: pg.Pool;
  commerce: CommerceHandle;
  identity: FakeIdentity;
  exchangePublicKey: string;
  insertSession(opts?: { buyerAgentId?: string; evidence?: number; purchase?: boolean }): Promise<{ sessionId: string; buyerAgentId: string; mandateId: string }>;
  appendItems(sessionId: string, count: number): Promise<void>;
  close(): Promise<void>;
}

const WALLET_SERVICE_NAME = 'exchange.wallet.v1.WalletLedgerService';

async function insertMandate(sql: pg.Pool, buyerAgentId: string): Promise<string> {
  const mandateId = newId('mdt');
  const signed = { mandate_id: mandateId, agent_id: buyerAgentId, limits: { per_transaction: '50', total: '100', currency: 'USD' } };
  await sql.query(
    `INSERT INTO mandates (mandate_id, signer_agent_id, agent_id, scope_merchants, scope_categories, scope_skus, per_transaction, total_limit,
       currency, expires_at, signature, signed_payload, autonomy_mode, spent)
     VALUES ($1, 'agt_signer', $2, '{shop.example}', '{}', '{}', 50000000, 100000000, 'USD', now() + interval '30 days', 'c2lnbmF0dXJl', $3::jsonb, 'autonomous', 12500000)`,
    [mandateId, buyerAgentId, JSON.stringify(signed)],
  );
  return mandateId;
}

async function insertPurchase(sql: pg.Pool, sessionId: string, buyerAgentId: string, mandateId: string): Promise<void> {
  const dealId = newId('deal');
  const receiptId = newId('rcpt');
  const receipt = { receipt_id: receiptId, kind: 'settlement', amount: '12.5', currency: 'USD', payee: 'merchant:shop.example', signature: 'c2lnbmF0dXJl' };
  await sql.query(
    `INSERT INTO purchases (deal_id, commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, amount, list_amount, currency, receipt_id, receipt, order_id)
     VALUES ($1, $2, $3, $4, 'shop.example', 12500000, 15000000, 'USD', $5, $6::jsonb, 'ord_1')`,
    [dealId, sessionId, buyerAgentId, mandateId, receiptId, JSON.stringify(receipt)],
  );
  await sql.query(`UPDATE checkout_sessions SET status = 'completed', payment_stage = 'settled', deal_id = $2, receipt_id = $3, order_id = 'ord_1' WHERE commerce_session_id = $1`, [
    sessionId,
    dealId,
    receiptId,
  ]);
}

export async function startEvidenceHarness(name = 'commerce_evidence'): Promise<EvidenceHarness> {
  const [db, walletDb]: TestDatabase[] = await Promise.all([createTestDatabase(name), createTestDatabase(`${name}_wallet`)]);
  const identity = await startFakeIdentity([]);
  const seed = generateKeyPair();
  const signingKey = toBase64(seed.privateKey);
  const walletPort = await findFreePortRange(1);
  const wallet: ServiceProcess = await spawnServiceProcess({
    script: 'apps/wallet-ledger/src/main.ts',
    healthService: WALLET_SERVICE_NAME,
    port: walletPort,
    env: { DATABASE_URL: walletDb.url, IDENTITY_GRPC_URL: identity.address, EXCHANGE_SIGNING_KEY: signingKey, EXCHANGE_ENV: 'sandbox', LOG_LEVEL: 'silent', HOLD_SWEEP_INTERVAL_MS: '0', PAYOUT_PROCESSOR_INTERVAL_MS: '0' },
  });
  const config = readCommerceConfig({
    DATABASE_URL: db.url,
    GRPC_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    EXCHANGE_ENV: 'sandbox',
    IDENTITY_GRPC_URL: identity.address,
    WALLET_LEDGER_GRPC_URL: `127.0.0.1:${walletPort}`,
    MARKET_GRPC_URL: '127.0.0.1:1',
    WORKFLOWS_GRPC_URL: '127.0.0.1:1',
    EXCHANGE_SIGNING_KEY: signingKey,
    COMMERCE_RECOVERY_INTERVAL_MS: '0',
  });
  const commerce = await startCommerce(config, { logger: testLogger });
  const client: CommerceClient = createServiceClient(commerceV1.CommerceServiceService, `127.0.0.1:${commerce.grpcPort}`);
  const sql = new pg.Pool({ connectionString: db.url, max: 3 });
  sql.on('error', () => undefined);
  let requests = 0;

  const appendItems = async (sessionId: string, count: number): Promise<void> => {
    // Each batch continues the request/response pattern with fresh bodies.
    const items = evidenceInputs(count).map((item) => ({ ...item, content: { ...item.content, batch: ++requests } }));
    await withTransaction(sql, (tx) => appendEvidence(tx, sessionId, items, new Date()));
  };

  return {
    client,
    sql,
    commerce,
    identity,
    exchangePublicKey: toBase64(seed.publicKey),
    async insertSession(opts = {}) {
      const buyerAgentId = opts.buyerAgentId ?? `agt_${newId('req').slice(4, 16)}`;
      const mandateId = await insertMandate(sql, buyerAgentId);
      const sessionId = newId('cs');
      await sql.query(
        `INSERT INTO checkout_sessions (commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, mode, status, merchant_checkout_id, currency,
           total, list_total, discount_codes, line_items, merchant_checkout, evidence_head, payment_stage, reserved_amount)
         VALUES ($1, $2, $3, 'shop.example', 'live', 'ready_for_complete', 'chk_1', 'USD', 12500000, 15000000, '{SAVE10}', $4::jsonb, $5::jsonb, $6, 'none', NULL)`,
        [sessionId, buyerAgentId, mandateId, JSON.stringify([{ item: { id: 'sku_1' }, quantity: 1 }]), JSON.stringify({ id: 'chk_1', status: 'ready_for_complete' }), GENESIS_HASH],
      );
      if ((opts.evidence ?? 0) > 0) await appendItems(sessionId, opts.evidence ?? 0);
      if (opts.purchase) await insertPurchase(sql, sessionId, buyerAgentId, mandateId);
      return { sessionId, buyerAgentId, mandateId };
    },
    appendItems,
    async close() {
      client.close();
      await commerce.stop();
      await sql.end();
      await wallet.stop();
      await identity.close();
      await Promise.all([db.drop(), walletDb.drop()]);
    },
  };
}
