import pg from 'pg';
import { createServiceClient, errorInfoFromGrpc, type GrpcErrorInfo, type PromiseClient } from '@exchange/platform';
import { createEventBus, type EventBus, type EventEnvelope } from '@exchange/events';
import { identityV1 } from '@exchange/proto';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';
import { startIdentity, type IdentityHandle } from '../src/index';
import type { RegistrationInput } from '../src/agents/registration';

export type IdentityClient = PromiseClient<typeof identityV1.IdentityServiceService>;

/** A real identity service (gRPC on an ephemeral port) on a fresh database and the in-process bus. */
export interface TestIdentity {
  db: TestDatabase;
  identity: IdentityHandle;
  client: IdentityClient;
  /** Direct SQL access, to assert what the service stored (outbox rows, transitions). */
  sql: pg.Pool;
  bus: EventBus;
  published: EventEnvelope[];
  restart(): Promise<IdentityHandle>;
  close(): Promise<void>;
}

export async function startTestIdentity(
  opts: { environment?: 'sandbox' | 'mainnet'; name?: string; registryUrl?: string } = {},
): Promise<TestIdentity> {
  const db = await createTestDatabase(opts.name ?? 'identity');
  const bus = await createEventBus({ logger: testLogger });
  const published: EventEnvelope[] = [];
  const subscription = await bus.subscribe({
    durable: 'identity-test',
    subjects: ['exchange.identity.>'],
    handler: async (event) => {
      published.push(event);
    },
  });
  const config = {
    GRPC_PORT: 0,
    GRPC_HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    EXCHANGE_ENV: opts.environment ?? 'sandbox',
    LOG_LEVEL: 'silent',
    OUTBOX_RETENTION_HOURS: 24,
    EVENTS_RETENTION_HOURS: 168,
    ...(opts.registryUrl ? { REGISTRY_GRPC_URL: opts.registryUrl } : {}),
  } as const;
  const start = () => startIdentity(config, { logger: testLogger, bus });
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  sql.on('error', () => undefined); // an idle assertion connection dropping is not a test failure
  const harness: TestIdentity = {
    db,
    identity: await start(),
    client: undefined as unknown as IdentityClient,
    sql,
    bus,
    published,
    async restart() {
      harness.client.close();
      await harness.identity.stop();
      harness.identity = await start();
      harness.client = clientFor(harness.identity);
      return harness.identity;
    },
    async close() {
      harness.client.close();
      await harness.identity.stop();
      await subscription.stop();
      await bus.close();
      await sql.end();
      await db.drop();
    },
  };
  harness.client = clientFor(harness.identity);
  return harness;
}

function clientFor(identity: IdentityHandle): IdentityClient {
  return createServiceClient(identityV1.IdentityServiceService, `127.0.0.1:${identity.grpcPort}`);
}

export function registerRequest(input: RegistrationInput, level = identityV1.IdentityLevel.IDENTITY_LEVEL_UNSPECIFIED) {
  return {
    agentId: input.agentId,
    primaryPubkey: input.primaryPubkey,
    pubkeySet: input.pubkeySet,
    identityLevel: level,
    proofNonce: input.proofNonce,
    proofSignature: input.proofSignature,
  };
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

/** Types of the outbox rows written for one agent, oldest first (rows stay after publishing). */
export async function outboxTypes(sql: pg.Pool, agentId: string): Promise<string[]> {
  const { rows } = await sql.query<{ type: string }>(
    `SELECT type FROM outbox_events WHERE payload->>'subject_id' = $1 ORDER BY created_at, id`,
    [agentId],
  );
  return rows.map((r) => r.type);
}
