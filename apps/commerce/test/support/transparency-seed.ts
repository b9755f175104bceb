/**
 * Transparency tests: commerce in process on its own database (fake identity; wallet-ledger is a
 * closed port — nothing here moves money) and writers of a history straight into its tables,
 * as the checkout, saga, cases and feedback areas would have left it.
 *
 *   const h = await startTransparencyHarness();
 *   await h.purchase({ dealId, buyer, currency, amount, listAmount, at })   (micro-units as bigint)
 *   await h.lifecycle(sessionId, seq, kind, { approval?, currency?, at })
 *   await h.caseRow({ caseId, dealId, buyer, type, amount, currency, createdAt, refundedAt? })
 */
import pg from 'pg';
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { createServiceClient, newId, type PromiseClient } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { createTestDatabase, startFakeIdentity, testLogger, type FakeIdentity, type TestDatabase } from '@exchange/testing';
import { readCommerceConfig, startCommerce, type CommerceHandle } from '../../src/index';

export type CommerceClient = PromiseClient<typeof commerceV1.CommerceServiceService>;

export interface SeedPurchase {
  dealId?: string;
  sessionId?: string;
  buyer: string;
  currency: string;
  amount: bigint;
  listAmount: bigint;
  at: string;
}

export interface SeedCase {
  caseId?: string;
  dealId: string;
  buyer: string;
  type: 'return' | 'refund' | 'chargeback';
  amount: bigint;
  currency: string;
  createdAt: string;
  /** Credited at (status approved, refund_state credited); absent: open, nothing credited. */
  refundedAt?: string;
  status?: string;
}

export interface TransparencyHarness {
  client: CommerceClient;
  sql: pg.Pool;
  purchase(p: SeedPurchase): Promise<{ dealId: string; sessionId: string; receiptId: string }>;
  lifecycle(sessionId: string, seq: number, kind: string, over: { at: string; approval?: string; currency?: string; status?: string; reason?: string }): Promise<void>;
  caseRow(c: SeedCase): Promise<string>;
  close(): Promise<void>;
}

export async function startTransparencyHarness(name: string): Promise<TransparencyHarness> {
  const db: TestDatabase = await createTestDatabase(name);
  const identity: FakeIdentity = await startFakeIdentity([]);
  const config = readCommerceConfig({
    DATABASE_URL: db.url,
    GRPC_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    EXCHANGE_ENV: 'sandbox',
    IDENTITY_GRPC_URL: identity.address,
    WALLET_LEDGER_GRPC_URL: '127.0.0.1:1',
    MARKET_GRPC_URL: '127.0.0.1:1',
    WORKFLOWS_GRPC_URL: '127.0.0.1:1',
    EXCHANGE_SIGNING_KEY: toBase64(generateKeyPair().privateKey),
    COMMERCE_RECOVERY_INTERVAL_MS: '0',
  });
  const commerce: CommerceHandle = await startCommerce(config, { logger: testLogger });
  const client: CommerceClient = createServiceClient(commerceV1.CommerceServiceService, `127.0.0.1:${commerce.grpcPort}`);
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  sql.on('error', () => undefined);
  return {
    client,
    sql,
    async purchase(p) {
      const dealId = p.dealId ?? newId('deal');
      const sessionId = p.sessionId ?? newId('cs');
      const receiptId = newId('rcpt');
      await sql.query(
        `INSERT INTO purchases (deal_id, commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, amount, list_amount, currency, receipt_id, receipt, completed_at)
         VALUES ($1, $2, $3, 'mdt_seed', 'sandbox-merchant.local', $4, $5, $6, $7, $8::jsonb, $9)`,
        [dealId, sessionId, p.buyer, p.amount.toString(), p.listAmount.toString(), p.currency, receiptId, JSON.stringify({ receipt_id: receiptId }), p.at],
      );
      return { dealId, sessionId, receiptId };
    },
    async lifecycle(sessionId, seq, kind, over) {
      await sql.query(
        `INSERT INTO session_lifecycle (commerce_session_id, seq, kind, status, approval, payment_stage, total, currency, reason, actor, at)
         VALUES ($1, $2, $3, $4, $5, 'none', 1000000, $6, $7, 'seed', $8)`,
        [sessionId, seq, kind, over.status ?? 'ready_for_complete', over.approval ?? 'pending', over.currency ?? 'USD', over.reason ?? null, over.at],
      );
    },
    async caseRow(c) {
      const caseId = c.caseId ?? newId('case');
      const credited = c.refundedAt !== undefined;
      await sql.query(
        `INSERT INTO purchase_cases (case_id, deal_id, buyer_agent_id, merchant_domain, type, reason, amount, currency, status, evidence_refs,
           refund_state, refunded_at, created_at, updated_at)
         VALUES ($1, $2, $3, 'sandbox-merchant.local', $4, 'seeded', $5, $6, $7, '{}', $8, $9, $10, $10)`,
        [caseId, c.dealId, c.buyer, c.type, c.amount.toString(), c.currency, c.status ?? (credited ? 'approved' : 'open'), credited ? 'credited' : 'none', c.refundedAt ?? null, c.createdAt],
      );
      return caseId;
    },
    async close() {
      client.close();
      await sql.end();
      await commerce.stop();
      await identity.close();
      await db.drop();
    },
  };
}
