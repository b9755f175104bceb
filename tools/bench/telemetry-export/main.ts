import { credentials } from '@grpc/grpc-js';
import { createLogger } from '@exchange/platform';
import { telemetryV1 } from '@exchange/proto';
import { createTestDatabase } from '@exchange/testing';
import pg from 'pg';
// The bench measures the service's own memory, so it runs it in this process (not a child).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { readTelemetryConfig, startTelemetry } from '@exchange/telemetry';

// Telemetry export memory (issue 18): ExportOperatorEvents streams JSONL with backpressure, read
// page by page, so memory must not grow with the number of events. On a throwaway database it
// seeds `--small` events (default 100,000), exports them all through a client that reads
// slowly, then seeds up to `--events` (default 1,000,000) and exports again; RSS and heapUsed of
// this process (service and client) are sampled every 250 ms. Prints events, bytes, seconds, MB/s
// and the peaks of each run: the same peaks for 10× the events = constant memory.
// Needs DATABASE_URL (or TEST_PG_ADMIN_URL): a PostgreSQL server to create the database on.
// `--client-delay-ms N` (default 1): the client's pause after each ~64 KiB chunk.

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]?.replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} wants a whole number`);
  return n;
}

const EVENTS = arg('events', 1_000_000);
const SMALL = Math.min(arg('small', 100_000), EVENTS);
const CLIENT_DELAY_MS = arg('client-delay-ms', 1);
const SEED_BATCH = 100_000;
const MiB = 1024 * 1024;

const TYPES = [
  ['exchange.market.contract.created', 'market'],
  ['exchange.market.offer.submitted', 'market'],
  ['exchange.wallet.hold.created', 'wallet'],
  ['exchange.registry.artifact.uploaded', 'registry'],
  ['exchange.workflows.task.posted', 'workflows'],
];

/** Events first..last (1-based), ~500-byte payloads, in one INSERT … SELECT generate_series. */
async function seed(sql: pg.Pool, first: number, last: number): Promise<void> {
  for (let from = first; from <= last; from += SEED_BATCH) {
    const to = Math.min(last, from + SEED_BATCH - 1);
    await sql.query(
      `INSERT INTO events (event_id, type, source, subject_id, occurred_at, actor, data, trace_id, contract_id, public_data)
       SELECT 'evt_bench_' || lpad(i::text, 10, '0'), t.type, t.source, 'sub_' || i,
              timestamptz '2026-01-01T00:00:00Z' + i * interval '10 ms', 'agt_bench_' || (i % 1000),
              jsonb_build_object('contract', jsonb_build_object(
                'contractId', 'ctr_bench_' || (i % 20000), 'title', 'Bench contract number ' || i,
                'description', repeat('Label the street images with boxes. ', 5),
                'tags', jsonb_build_array('vision', 'labeling', 'bench'),
                'budget', jsonb_build_object('amount', (i % 500) || '.25', 'currency', 'CREDIT'),
                'buyerId', 'agt_bench_' || (i % 1000), 'status', 'open',
                'createdAt', to_char(timestamptz '2026-01-01T00:00:00Z' + i * interval '10 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
              md5(i::text), 'ctr_bench_' || (i % 20000), NULL
         FROM generate_series($1::int, $2::int) AS i
         JOIN (SELECT * FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS x(type, source, k)) t ON t.k = 1 + i % ${TYPES.length}`,
      [from, to, TYPES.map((t) => t[0]), TYPES.map((t) => t[1])],
    );
    process.stdout.write(`  seeded ${to.toLocaleString('en')} events\n`);
  }
}

interface Peaks {
  rss: number;
  heap: number;
}

function sampler() {
  let peaks: Peaks = { rss: 0, heap: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peaks = { rss: Math.max(peaks.rss, m.rss), heap: Math.max(peaks.heap, m.heapUsed) };
  };
  const timer = setInterval(sample, 250);
  return {
    reset: () => {
      peaks = { rss: 0, heap: 0 };
      sample();
    },
    peaks: () => {
      sample();
      return peaks;
    },
    stop: () => clearInterval(timer),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  events: number;
  bytes: number;
  seconds: number;
  peaks: Peaks;
  baseline: NodeJS.MemoryUsage;
}

async function exportAll(client: telemetryV1.TelemetryServiceClient, mem: ReturnType<typeof sampler>): Promise<Run> {
  global.gc?.();
  const baseline = process.memoryUsage();
  mem.reset();
  const started = performance.now();
  const call = client.exportOperatorEvents({ actor: { agentId: '', operator: true }, filter: {} });
  let bytes = 0;
  let lines = 0;
  for await (const msg of call as AsyncIterable<{ jsonl: Buffer }>) {
    bytes += msg.jsonl.length;
    for (let i = msg.jsonl.indexOf(10); i >= 0; i = msg.jsonl.indexOf(10, i + 1)) lines++;
    if (CLIENT_DELAY_MS > 0) await sleep(CLIENT_DELAY_MS);
  }
  return { events: lines, bytes, seconds: (performance.now() - started) / 1000, peaks: mem.peaks(), baseline };
}

function report(run: Run): string {
  const mb = (n: number) => (n / MiB).toFixed(1);
  return `| ${run.events.toLocaleString('en')} | ${mb(run.bytes)} MiB | ${run.seconds.toFixed(1)} s | ${mb(run.bytes / run.seconds)} MiB/s | ${mb(run.baseline.rss)} → ${mb(run.peaks.rss)} MiB | ${mb(run.baseline.heapUsed)} → ${mb(run.peaks.heap)} MiB |`;
}

async function main() {
  const db = await createTestDatabase('bench_telemetry_export');
  const logger = createLogger({ name: 'bench', level: 'warn' });
  const config = readTelemetryConfig({ DATABASE_URL: db.url, GRPC_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  const telemetry = await startTelemetry(config, { logger });
  const sql = new pg.Pool({ connectionString: db.url, max: 1 });
  const client = new telemetryV1.TelemetryServiceClient(`127.0.0.1:${telemetry.grpcPort}`, credentials.createInsecure());
  const mem = sampler();
  const runs: Run[] = [];
  try {
    console.log(`seeding ${SMALL.toLocaleString('en')} events`);
    await seed(sql, 1, SMALL);
    runs.push(await exportAll(client, mem));
    if (EVENTS > SMALL) {
      console.log(`seeding up to ${EVENTS.toLocaleString('en')} events`);
      await seed(sql, SMALL + 1, EVENTS);
      runs.push(await exportAll(client, mem));
    }
  } finally {
    mem.stop();
    client.close();
    await sql.end();
    await telemetry.stop();
    await db.drop();
  }
  console.log(`\nExportOperatorEvents, client pausing ${CLIENT_DELAY_MS} ms per chunk (service and client in one process; Node ${process.version})\n`);
  console.log('| events | bytes | seconds | throughput | RSS (before → peak) | heapUsed (before → peak) |');
  console.log('|---|---|---|---|---|---|');
  for (const run of runs) console.log(report(run));
  const expected = [SMALL, EVENTS].slice(0, runs.length);
  if (runs.some((r, i) => r.events !== expected[i])) {
    console.error(`lines exported ${runs.map((r) => r.events).join(', ')} ≠ events seeded ${expected.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
