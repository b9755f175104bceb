/**
 * Mandates test harness: commerce started in process on its own database, with a fake identity
 * (real gRPC, in-memory agents with ed25519 keys) and the in-process event bus. Wallet-ledger is
 * never called by the mandate RPCs: its address points at a closed port (clients connect lazily).
 *
 *   const h = await startMandatesHarness();
 *   h.client                          commerce gRPC client
 *   h.newAgent()                      TestAgent registered in the fake identity
 *   h.createRequest(signer, agentId, over?)   a CreateMandateRequest signed by `signer`
 *   h.clock.advance(ms)               commerce's clock
 *   h.sql                             pg pool on commerce's database
 *   h.outbox(subjectId?)              outbox events {type, data} oldest first
 */
import pg from 'pg';
import { generateKeyPair, sign, toBase64 } from '@exchange/crypto';
import { createServiceClient, errorInfoFromGrpc, type GrpcErrorInfo, type PromiseClient } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { createTestDatabase, startFakeIdentity, testLogger, type FakeIdentity, type TestDatabase } from '@exchange/testing';
import { readCommerceConfig, startCommerce, type CommerceHandle } from '../../src/index';
import { mandateSignedPayload, mandateSigningBytes } from '../../src/mandates/mandate-signing';

export type CommerceClient = PromiseClient<typeof commerceV1.CommerceServiceService>;

export interface TestAgent {
  agentId: string;
  privateKey: Uint8Array;
}

export interface MandatesHarness {
  client: CommerceClient;
  commerce: CommerceHandle;
  identity: FakeIdentity;
  clock: { now(): Date; advance(ms: number): void };
  sql: pg.Pool;
  newAgent(prefix?: string): TestAgent;
  createRequest(signer: TestAgent, agentId: string, over?: Partial<commerceV1.CreateMandateRequest>): commerceV1.CreateMandateRequest;
  /** Re-signs a request after a change (the signature covers the mandate fields). */
  resign(signer: TestAgent, req: commerceV1.CreateMandateRequest): commerceV1.CreateMandateRequest;
  outbox(subjectId?: string): Promise<Array<{ type: string; data: any }>>;
  close(): Promise<void>;
}

let seq = 0;

/** The error info of a call that must fail. */
export async function grpcError(call: Promise<unknown>): Promise<GrpcErrorInfo> {
  try {
    await call;
  } catch (err) {
    return errorInfoFromGrpc(err);
  }
  throw new Error('expected the call to fail');
}

export const agentActor = (agent: TestAgent | string) => ({ agentId: typeof agent === 'string' ? agent : agent.agentId, operator: false });
export const operatorActor = { agentId: '', operator: true };

export async function startMandatesHarness(): Promise<MandatesHarness> {
  const db: TestDatabase = await createTestDatabase('commerce_mandates');
  const identity = await startFakeIdentity([]);
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs), advance: (ms: number) => void (offsetMs += ms) };
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
    AGENT_CACHE_TTL_MS: '0',
  });
  const commerce = await startCommerce(config, { logger: testLogger, clock: clock.now });
  const client: CommerceClient = createServiceClient(commerceV1.CommerceServiceService, `127.0.0.1:${commerce.grpcPort}`);
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  sql.on('error', () => undefined);

  const resign = (signer: TestAgent, req: commerceV1.CreateMandateRequest): commerceV1.CreateMandateRequest => {
    const payload = mandateSignedPayload({
      signerAgentId: req.signerAgentId,
      agentId: req.agentId,
      scope: { merchants: req.scopeMerchants, categories: req.scopeCategories, skus: req.scopeSkus },
      limits: { perTransaction: req.perTransaction, total: req.totalLimit, currency: req.currency },
      expiresAt: req.expiresAt ?? new Date(0),
    });
    return { ...req, signature: toBase64(sign(mandateSigningBytes(payload), signer.privateKey)) };
  };

  return {
    client,
    commerce,
    identity,
    clock,
    sql,
    newAgent: (prefix = 'agt') => {
      const keys = generateKeyPair();
      const agentId = `${prefix}_${process.pid}_${++seq}`;
      identity.put({ agentId, pubkeys: [toBase64(keys.publicKey)] });
      return { agentId, privateKey: keys.privateKey };
    },
    createRequest: (signer, agentId, over = {}) =>
      resign(
        signer,
        commerceV1.CreateMandateRequest.fromPartial({
          actor: agentActor(signer),
          signerAgentId: signer.agentId,
          agentId,
          scopeMerchants: ['sandbox-merchant.local'],
          scopeCategories: [],
          scopeSkus: [],
          perTransaction: '25.50',
          totalLimit: '100',
          currency: 'USD',
          expiresAt: new Date(clock.now().getTime() + 7 * 86_400_000),
          ...over,
        }),
      ),
    resign,
    outbox: async (subjectId) => {
      const { rows } = await sql.query(
        `SELECT type, payload FROM outbox_events WHERE $1::text IS NULL OR payload->>'subject_id' = $1 ORDER BY created_at, id`,
        [subjectId ?? null],
      );
      return rows.map((r) => ({ type: r.type, data: r.payload.data }));
    },
    close: async () => {
      client.close();
      await sql.end();
      await commerce.stop();
      await identity.close();
      await db.drop();
    },
  };
}
