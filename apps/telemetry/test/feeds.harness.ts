/**
 * Feeds/timelines/export test harness: telemetry started in process on its own real PostgreSQL
 * database (in-process event bus), a unary client and a raw grpc-js client for the streams.
 * Events are seeded through ingest (as the consumer records them).
 *
 *   const h = await startFeedsHarness('name');
 *   h.client.listPublicEvents(...)     h.streams.exportOperatorEvents(req)  (grpc-js readable)
 *   h.seed(envelopes)  h.sql  h.stop()
 */
import pg from 'pg';
import { credentials, type ClientReadableStream } from '@grpc/grpc-js';
import type { EventEnvelope } from '@exchange/events';
import { createServiceClient, errorInfoFromGrpc, type PromiseClient } from '@exchange/platform';
import { telemetryV1 } from '@exchange/proto';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';
import { readTelemetryConfig, startTelemetry, type TelemetryHandle } from '../src/index';
import { ingestEvent } from '../src/ingest/event-store.repo';

export type TelemetryClient = PromiseClient<typeof telemetryV1.TelemetryServiceService>;

export const OPERATOR: telemetryV1.Actor = { agentId: '', operator: true };
export const AGENT: telemetryV1.Actor = { agentId: 'agt_someone', operator: false };

export interface FeedsHarness {
  client: TelemetryClient;
  streams: telemetryV1.TelemetryServiceClient;
  sql: pg.Pool;
  seed(events: readonly EventEnvelope[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startFeedsHarness(name: string): Promise<FeedsHarness> {
  const db: TestDatabase = await createTestDatabase(name);
  let telemetry: TelemetryHandle | undefined;
  try {
    // No NATS_URL: the in-process bus (nothing is published in these tests; ingest is called directly).
    const config = readTelemetryConfig({ DATABASE_URL: db.url, GRPC_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    telemetry = await startTelemetry(config, { logger: testLogger });
  } catch (err) {
    await db.drop();
    throw err;
  }
  const address = `127.0.0.1:${telemetry.grpcPort}`;
  const client = createServiceClient(telemetryV1.TelemetryServiceService, address);
  const streams = new telemetryV1.TelemetryServiceClient(address, credentials.createInsecure());
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  const running = telemetry;
  return {
    client,
    streams,
    sql,
    seed: async (events) => {
      // One transaction for the lot (ingest joins the caller's): thousands of events in seconds.
      const c = await sql.connect();
      try {
        await c.query('BEGIN');
        for (const e of events) await ingestEvent(c, e);
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK');
        throw err;
      } finally {
        c.release();
      }
    },
    stop: async () => {
      streams.close();
      await running.stop();
      await sql.end();
      await db.drop();
    },
  };
}

/** The error code a promise fails with (`x-error-code`), or 'ok'. */
export async function failureCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return errorInfoFromGrpc(err).code;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads a JSONL export to its end, pausing `delayMs` after each chunk (a slow reader); its chunks. */
export async function readExport(stream: ClientReadableStream<{ jsonl: Buffer }>, delayMs = 0): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const msg of stream as AsyncIterable<{ jsonl: Buffer }>) {
    chunks.push(Buffer.from(msg.jsonl));
    if (delayMs > 0) await sleep(delayMs);
  }
  return chunks;
}

/** The lines of an export, parsed. */
export function linesOf(chunks: Buffer[]): Array<Record<string, unknown>> {
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return [];
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}
