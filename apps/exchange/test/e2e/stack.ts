import { findFreePort, findFreePortRange } from '@exchange/db';
import { ExchangeClient } from '@exchange/sdk';
import { dropDatabasesWithPrefix } from '@exchange/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startExchange } from '../../src/exchange';
import { serviceGrpcUrlsByName } from '../../src/services';
import { acquireSharedStack, releaseSharedStack } from './shared-stack';

// Boots the whole exchange for the end-to-end suite, in one of two modes:
// - in-process (default): apps/exchange's startExchange in this jest process;
// - distributed (E2E_MODE=distributed): `apps/exchange/src/run-services.ts` as a child process that starts one
//   process per service against real PostgreSQL (DATABASE_URL) and NATS (NATS_URL).
// Either way the suite talks to it only over HTTP, as an agent would.
export interface Stack {
  mode: 'in-process' | 'distributed';
  baseUrl: string;
  operatorToken: string;
  /**
   * gRPC `host:port` of each service by name (`identity`, `wallet-ledger`), for the few things
   * only another service does over gRPC (e.g. wallet Settle, which the market will call).
   */
  grpcUrls: Record<string, string>;
  /** The stack's data directory (artifact bytes under `<dataDir>/artifacts`). */
  dataDir: string;
  stop(): Promise<void>;
}

const repoRoot = resolve(__dirname, '../../../..');

export interface StackOptions {
  /** Extra environment for every service (e.g. `PAYOUT_PROCESSOR_INTERVAL_MS: '0'`); such a stack is always the file's own. */
  env?: Record<string, string>;
  /**
   * The run's shared stack (one per jest run, see shared-stack.ts) instead of one booted for this file: only
   * for files that change no exchange-wide state (market integrity, controls, …) and assert nothing about
   * exchange-wide lists or counts, so that what other files did before them cannot change their outcome.
   */
  shared?: boolean;
}

export async function bootStack(opts: StackOptions = {}): Promise<Stack> {
  if (opts.shared && !opts.env) {
    const shared = await acquireSharedStack();
    if (shared) return shared;
  }
  await releaseSharedStack();
  return startStack(opts);
}

/** A new stack, whatever else is running (shared-stack.setup.js boots the shared one with it). */
export async function startStack(opts: StackOptions): Promise<Stack> {
  // Redis-backed counters (rate limits, failed authentication, seen nonces) are per stack, so one
  // suite's 429s or lock-outs never leak into the next one on the same Redis.
  const extraEnv = { RATE_LIMIT_REDIS_PREFIX: `e2e-rl-${randomBytes(4).toString('hex')}:`, ...opts.env };
  const operatorToken = `e2e-${randomBytes(16).toString('hex')}`;
  const dbPrefix = `e2e_${randomBytes(4).toString('hex')}_`;
  const dataDir = await mkdtemp(join(tmpdir(), 'exchange-e2e-'));
  // Run as root, embedded PostgreSQL drops to the `postgres` user, which must reach the data dir.
  await chmod(dataDir, 0o755);
  if (process.env.REQUIRE_REAL_SERVICES === '1' && (!process.env.DATABASE_URL || !process.env.NATS_URL)) {
    throw new Error('REQUIRE_REAL_SERVICES=1 but DATABASE_URL or NATS_URL is not set');
  }
  if (process.env.E2E_MODE === 'distributed') return bootDistributed({ operatorToken, dbPrefix, dataDir, extraEnv });

  const exchange = await startExchange({
    ...pick(process.env, ['DATABASE_URL', 'NATS_URL', 'REDIS_URL']),
    ...extraEnv,
    PORT: '0',
    EXCHANGE_DATA_DIR: dataDir,
    EXCHANGE_DB_PREFIX: dbPrefix,
    OPERATOR_TOKEN: operatorToken,
    LOG_LEVEL: process.env.TEST_LOG ? 'info' : 'silent',
  });
  return {
    mode: 'in-process',
    baseUrl: exchange.url,
    operatorToken,
    grpcUrls: exchange.grpcUrls,
    dataDir,
    async stop() {
      await exchange.stop();
      await rm(dataDir, { recursive: true, force: true });
      await dropStackDatabases(dbPrefix);
    },
  };
}

async function bootDistributed(opts: { operatorToken: string; dbPrefix: string; dataDir: string; extraEnv: Record<string, string> }): Promise<Stack> {
  if (!process.env.DATABASE_URL || !process.env.NATS_URL) {
    throw new Error('E2E_MODE=distributed needs DATABASE_URL and NATS_URL');
  }
  const port = await findFreePort();
  // Services listen on GRPC_BASE_PORT + their index in SERVICES (run-services.ts): every one of
  // those ports must be free, not only the first (room for 16 services).
  const grpcBasePort = await findFreePortRange(16);
  const grpcUrls = serviceGrpcUrlsByName(grpcBasePort);
  // (Loaded through tsx's namespaced require, as the shared stack is, the resolved path carries a `?namespace=` query.)
  const tsxCli = require.resolve('tsx/cli').replace(/\?.*$/, '');
  const child: ChildProcess = spawn(process.execPath, [tsxCli, 'apps/exchange/src/run-services.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...opts.extraEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      OPERATOR_TOKEN: opts.operatorToken,
      EXCHANGE_DB_PREFIX: opts.dbPrefix,
      EXCHANGE_DATA_DIR: opts.dataDir,
      GRPC_BASE_PORT: String(grpcBasePort),
      LOG_LEVEL: process.env.TEST_LOG ? 'info' : 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    // Its own process group, so that teardown can reach the service processes it started too.
    detached: true,
  });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  // A stack that never became healthy leaves nothing behind either: no processes, data, databases.
  const abandon = async (message: string): Promise<never> => {
    killGroup(child.pid, 'SIGKILL');
    await exited;
    await rm(opts.dataDir, { recursive: true, force: true });
    await dropStackDatabases(opts.dbPrefix);
    throw new Error(message);
  };
  for (;;) {
    if (child.exitCode !== null) await abandon(`run-services exited early with ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) await abandon('distributed stack did not become healthy within 90 s');
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    mode: 'distributed',
    baseUrl,
    operatorToken: opts.operatorToken,
    grpcUrls,
    dataDir: opts.dataDir,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      // Whatever is left of the group (nothing, after a clean shutdown) goes too.
      killGroup(child.pid, 'SIGKILL');
      await rm(opts.dataDir, { recursive: true, force: true });
      await dropStackDatabases(opts.dbPrefix);
      if (code !== 0) throw new Error(`run-services exited with ${code} on SIGTERM`);
    },
  };
}

/** On a real server the stack's databases (one per service) go with it. */
async function dropStackDatabases(prefix: string) {
  if (process.env.DATABASE_URL) await dropDatabasesWithPrefix(process.env.DATABASE_URL, prefix);
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function pick(env: NodeJS.ProcessEnv, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (env[k]) out[k] = env[k] as string;
  return out;
}


/** The exchange public key /health publishes (null there only when the gateway has no key, never in a stack). */
export async function exchangePublicKey(stack: Stack): Promise<string> {
  const key: string | null = (await new ExchangeClient({ baseUrl: stack.baseUrl }).health()).exchange_public_key;
  if (key === null) throw new Error('/health has no exchange_public_key: the stack runs without an exchange key');
  return key;
}
