import { createHealthClient } from '@exchange/platform';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const repoRoot = resolve(__dirname, '../../..');
const tsxCli = require.resolve('tsx/cli');

/** A service started from its entry point (`tsx apps/<name>/src/main.ts`) in its own process group. */
export interface ServiceProcess {
  address: string;
  pid: number;
  /** The last lines it wrote to stderr (for failure messages). */
  stderr(): string;
  /** SIGKILL to the whole group: no shutdown hook, no outbox flush. */
  crash(): Promise<void>;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface ServiceProcessOptions {
  /** Entry point relative to the repository root, e.g. `apps/wallet-ledger/src/main.ts`. */
  script: string;
  /** gRPC health service name that must report SERVING. */
  healthService: string;
  port: number;
  /** The service's whole configuration besides GRPC_PORT/GRPC_HOST; nothing else of the runner leaks in. */
  env: Record<string, string>;
  startTimeoutMs?: number;
}

// Variables of the test runner that must not reach the service unless the test passes them.
const RUNNER_ONLY = ['DATABASE_URL', 'NATS_URL', 'REDIS_URL', 'GRPC_PORT', 'GRPC_HOST', 'WALLET_KILL_SWITCHES', 'WALLET_READ_ONLY'];

/** Starts the service and resolves once its gRPC health says SERVING (else kills it and throws with its stderr). */
export async function spawnServiceProcess(opts: ServiceProcessOptions): Promise<ServiceProcess> {
  const base = { ...process.env };
  for (const k of RUNNER_ONLY) delete base[k];
  const child: ChildProcess = spawn(process.execPath, [tsxCli, opts.script], {
    cwd: repoRoot,
    env: { ...base, ...opts.env, GRPC_PORT: String(opts.port), GRPC_HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const pid = child.pid;
  // A spawn that failed outright (node missing) has no pid.
  if (pid === undefined) throw new Error(`could not start ${opts.script}`);
  const address = `127.0.0.1:${opts.port}`;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };

  const health = createHealthClient(address, { defaultDeadlineMs: 2_000 });
  const deadline = Date.now() + (opts.startTimeoutMs ?? 90_000);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${opts.script} exited with ${child.exitCode} while starting:\n${tail}`);
      const status = await health.check(opts.healthService).catch(() => 'DOWN');
      if (status === 'SERVING') break;
      if (Date.now() > deadline) throw new Error(`${opts.script} not SERVING within the start timeout:\n${tail}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    killGroup('SIGKILL');
    await exited;
    throw err;
  } finally {
    health.close();
  }

  return {
    address,
    pid,
    stderr: () => tail,
    crash: async () => {
      killGroup('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      killGroup('SIGKILL'); // anything of the group left behind
      return code;
    },
  };
}
