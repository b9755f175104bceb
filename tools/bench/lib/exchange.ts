import { findFreePort, findFreePortRange } from '@exchange/db';
import { createHealthClient } from '@exchange/platform';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

// The exchange under test, as its own process group: distributed (`run-services.ts`, one process
// per service, PostgreSQL at DATABASE_URL + NATS at NATS_URL) or all-in-one (`apps/exchange`
// main.ts; on DATABASE_URL/NATS_URL when set, else embedded PostgreSQL and in-process events).
// Always on per-run databases (`<prefix>identity`, …) dropped at the end, never on DATABASE_URL's
// own database. BENCH_TREE runs it from another checkout (e.g. the commit before a change) while
// the harness and load generator stay this tree's, so before/after run back to back.

export type Mode = 'distributed' | 'all-in-one';

export interface RunningExchange {
  url: string;
  token: string;
  tree: string;
  /** Process group of every process the exchange started (for CPU sampling). */
  pgid: number;
  dbPrefix: string;
  /** Distributed mode: the host:port whose gRPC health reports `service` SERVING. */
  grpcAddress(service: string): Promise<string>;
  /** The database of one service (external PostgreSQL only). */
  databaseUrl(service: string): string;
  stop(): Promise<void>;
}

const thisTree = resolve(__dirname, '../../..');

export function benchTree(): string {
  const tree = resolve(process.env.BENCH_TREE ?? thisTree);
  if (!existsSync(join(tree, 'apps/exchange/src/run-services.ts'))) throw new Error(`BENCH_TREE=${tree} holds no apps/exchange/src/run-services.ts`);
  return tree;
}

// Throughput, not the limiter, is measured: every per-window limit is lifted (the names are the
// same in the trees benchmarked so far; the gateway ignores ones it does not know).
const LIFTED_LIMITS = Object.fromEntries(
  ['OPERATOR', 'ANONYMOUS', 'SANDBOX_UNVERIFIED', 'MAINNET_BASIC', 'MAINNET_ATTESTED', 'MAINNET_VERIFIED', 'MAINNET_INSTITUTIONAL', 'AUTH_FAILURES'].map((n) => [
    `RATE_LIMIT_${n}`,
    '100000000',
  ]),
);

// The exchange runs detached (its own process group), so an interrupted harness stops it — and
// drops its databases — itself.
const running = new Set<() => Promise<void>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.allSettled([...running].map((stop) => stop())).finally(() => process.exit(130));
  });
}

export async function startExchange(opts: { mode: Mode; token: string; label: string }): Promise<RunningExchange> {
  const tree = benchTree();
  const databaseUrl = process.env.DATABASE_URL;
  const natsUrl = process.env.NATS_URL;
  if (opts.mode === 'distributed' && (!databaseUrl || !natsUrl)) {
    throw new Error('distributed mode needs DATABASE_URL and NATS_URL, e.g. DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres NATS_URL=nats://127.0.0.1:4222');
  }
  const port = await findFreePort();
  const basePort = await findFreePortRange(16); // distributed: service i binds basePort + i
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-exchange-'));
  // Run as root, embedded PostgreSQL drops to the `postgres` user, which must reach the data dir.
  chmodSync(dataDir, 0o755);
  const dbPrefix = `bench_${opts.label}_${Date.now().toString(36)}_`;
  const script = opts.mode === 'distributed' ? 'apps/exchange/src/run-services.ts' : 'apps/exchange/src/main.ts';
  const child = spawn(process.execPath, [require.resolve('tsx/cli', { paths: [tree] }), script], {
    cwd: tree,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      GRPC_BASE_PORT: String(basePort),
      OPERATOR_TOKEN: opts.token,
      EXCHANGE_DATA_DIR: dataDir,
      EXCHANGE_DB_PREFIX: dbPrefix,
      ...LIFTED_LIMITS,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    // Its own process group: stop() reaches every process it started, and CPU is sampled per group.
    detached: true,
  });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const pgid = child.pid ?? -1;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pgid, signal);
    } catch {
      // already gone
    }
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    running.delete(stop);
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    killGroup('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) await dropDatabases(databaseUrl, dbPrefix);
  };
  running.add(stop);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor('the gateway /health', 180_000, async () => {
      if (child.exitCode !== null) throw new Error(`the exchange (${script} in ${tree}) exited with ${child.exitCode}`);
      return (await fetch(`${url}/health`).catch(() => undefined))?.status === 200;
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    token: opts.token,
    tree,
    pgid,
    dbPrefix,
    grpcAddress: (service) => findService(basePort, service),
    databaseUrl: (service) => {
      if (!databaseUrl) throw new Error('no DATABASE_URL: the service databases are embedded');
      const u = new URL(databaseUrl);
      u.pathname = `/${dbPrefix}${service.replace(/-/g, '_')}`;
      return u.toString();
    },
    stop,
  };
}

/** run-services gives the services consecutive ports from GRPC_BASE_PORT: ask each which it is. */
async function findService(basePort: number, service: string): Promise<string> {
  for (let port = basePort; port < basePort + 16; port++) {
    const address = `127.0.0.1:${port}`;
    const health = createHealthClient(address, { defaultDeadlineMs: 1_000 });
    try {
      if ((await health.check(service)) === 'SERVING') return address;
    } catch {
      // not this one
    } finally {
      health.close();
    }
  }
  throw new Error(`no SERVING ${service} on ports ${basePort}-${basePort + 15}`);
}

async function waitFor(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The benchmark's own databases (one per service) go when it ends. */
async function dropDatabases(serverUrl: string, prefix: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(datname)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
