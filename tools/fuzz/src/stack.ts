// Boots the whole exchange as a child process (`tsx apps/exchange/src/main.ts`, the launcher
// `npm start` runs) on a fresh data directory and a free port, so that a crash shows as a dead
// child and a hang as /health not answering. DATABASE_URL, NATS_URL and REDIS_URL pass through
// when set (its databases get a unique prefix and are dropped at the end); embedded PostgreSQL
// otherwise. The child runs in its own process group: stop() ends it and everything it started.
import { findStablePort } from '@exchange/db';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dropDatabasesWithPrefix } from './databases';

export interface Exchange {
  baseUrl: string;
  host: string;
  port: number;
  operatorToken: string;
  /** The child's stdout and stderr. */
  logFile: string;
  /** Set once the child has exited: `exited with 1`, `killed by SIGSEGV`. */
  exitReason(): string | null;
  stop(opts?: { keepLog?: boolean }): Promise<void>;
}

const repoRoot = resolve(__dirname, '../../..');

/** The last lines of the exchange log (for a crash report). */
export function logTail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

export async function bootExchange(opts: { log: (line: string) => void; timeoutMs?: number }): Promise<Exchange> {
  const operatorToken = `fuzz-${randomBytes(16).toString('hex')}`;
  const dbPrefix = `fuzz_${randomBytes(4).toString('hex')}_`;
  const dataDir = await mkdtemp(join(tmpdir(), 'exchange-fuzz-'));
  // Run as root, embedded PostgreSQL drops to the `postgres` user, which must reach the data dir.
  await chmod(dataDir, 0o755);
  const logFile = `${dataDir}.log`;
  const port = await findStablePort();
  const host = '127.0.0.1';
  const out = openSync(logFile, 'a');
  const child: ChildProcess = spawn(process.execPath, [require.resolve('tsx/cli'), 'apps/exchange/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: host,
      EXCHANGE_DATA_DIR: dataDir,
      EXCHANGE_DB_PREFIX: dbPrefix,
      OPERATOR_TOKEN: operatorToken,
      LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', out, out],
    detached: true,
  });
  closeSync(out);
  let exit: string | null = null;
  const exited = new Promise<void>((res) =>
    child.once('exit', (code, signal) => {
      exit = signal ? `killed by ${signal}` : `exited with ${code}`;
      res();
    }),
  );
  const baseUrl = `http://${host}:${port}`;
  opts.log(`booting the exchange (${process.env.DATABASE_URL ? `PostgreSQL at DATABASE_URL, prefix ${dbPrefix}` : 'embedded PostgreSQL'}, ${process.env.NATS_URL ? 'NATS' : 'in-process events'}${process.env.REDIS_URL ? ', Redis' : ''}) on ${baseUrl}; log ${logFile}`);

  let stopped = false;
  const stop = async ({ keepLog = false } = {}) => {
    if (stopped) return;
    stopped = true;
    if (exit === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    // Whatever is left of the group (embedded PostgreSQL after a crash) goes too.
    killGroup(child.pid, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    if (process.env.DATABASE_URL) await dropDatabasesWithPrefix(process.env.DATABASE_URL, dbPrefix).catch((err: Error) => opts.log(`could not drop ${dbPrefix}*: ${err.message}`));
    if (!keepLog) await rm(logFile, { force: true });
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 150_000);
  for (;;) {
    if (exit !== null) {
      const tail = logTail(logFile);
      await stop({ keepLog: true });
      throw new Error(`the exchange ${exit} while starting; log ${logFile}:\n${tail}`);
    }
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop({ keepLog: true });
      throw new Error(`the exchange did not answer /health with 200 within ${Math.round((opts.timeoutMs ?? 150_000) / 1000)} s; log ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { baseUrl, host, port, operatorToken, logFile, exitReason: () => exit, stop };
}
