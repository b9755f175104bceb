import { findFreePort, findFreePortRange } from '@exchange/db';
import { createHealthClient } from '@exchange/platform';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

// The exchange in distributed mode (`apps/exchange/src/run-services.ts`: gateway, identity and
// wallet-ledger each their own process) against the PostgreSQL of DATABASE_URL and the NATS of
// NATS_URL, on per-run databases that are dropped at the end.

const repoRoot = resolve(__dirname, '../../..');
const WALLET_SERVICE = 'exchange.wallet.v1.WalletLedgerService';

export interface RunningExchange {
  url: string;
  token: string;
  /** host:port of wallet-ledger's gRPC server. */
  walletGrpc: string;
  /** wallet-ledger's own database. */
  walletDatabaseUrl: string;
  stop(): Promise<void>;
}

export async function startDistributedExchange(opts: { databaseUrl: string; natsUrl: string; token: string; logLevel: string }): Promise<RunningExchange> {
  const port = await findFreePort();
  const basePort = await findFreePortRange(16); // every service binds basePort + its index
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ledger-'));
  chmodSync(dataDir, 0o755);
  const dbPrefix = `bench_ledger_${Date.now().toString(36)}_`;
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'apps/exchange/src/run-services.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: opts.databaseUrl,
      NATS_URL: opts.natsUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      GRPC_BASE_PORT: String(basePort),
      OPERATOR_TOKEN: opts.token,
      EXCHANGE_DATA_DIR: dataDir,
      EXCHANGE_DB_PREFIX: dbPrefix,
      // Throughput, not the limiter, is measured: lift every per-minute limit.
      RATE_LIMIT_OPERATOR: '100000000',
      RATE_LIMIT_ANONYMOUS: '100000000',
      RATE_LIMIT_SANDBOX_UNVERIFIED: '100000000',
      RATE_LIMIT_MAINNET_BASIC: '100000000',
      RATE_LIMIT_MAINNET_ATTESTED: '100000000',
      RATE_LIMIT_MAINNET_VERIFIED: '100000000',
      RATE_LIMIT_MAINNET_INSTITUTIONAL: '100000000',
      LOG_LEVEL: opts.logLevel,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    // Its own process group, so that stop() reaches the service processes it started too.
    detached: true,
  });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const pid = child.pid;
  const killGroup = (signal: NodeJS.Signals) => {
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    killGroup('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabases(opts.databaseUrl, dbPrefix);
  };

  try {
    const url = `http://127.0.0.1:${port}`;
    await waitFor('the gateway /health', 120_000, async () => {
      if (child.exitCode !== null) throw new Error(`run-services exited with ${child.exitCode}`);
      return (await fetch(`${url}/health`).catch(() => undefined))?.status === 200;
    });
    const walletGrpc = await findWalletLedger(basePort);
    const walletDatabaseUrl = new URL(opts.databaseUrl);
    walletDatabaseUrl.pathname = `/${dbPrefix}wallet_ledger`;
    return { url, token: opts.token, walletGrpc, walletDatabaseUrl: walletDatabaseUrl.toString(), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** run-services gives the services consecutive ports from GRPC_BASE_PORT: ask each which it is. */
async function findWalletLedger(basePort: number): Promise<string> {
  for (let port = basePort; port < basePort + 16; port++) {
    const address = `127.0.0.1:${port}`;
    const health = createHealthClient(address, { defaultDeadlineMs: 1_000 });
    try {
      if ((await health.check(WALLET_SERVICE)) === 'SERVING') return address;
    } catch {
      // not this one
    } finally {
      health.close();
    }
  }
  throw new Error(`no SERVING ${WALLET_SERVICE} on ports ${basePort}-${basePort + 15}: is wallet-ledger in apps/exchange/src/services.ts?`);
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
