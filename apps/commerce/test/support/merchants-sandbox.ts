import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { findFreePort } from '@exchange/db';

// The real sandbox merchant (apps/sandbox-merchant) for commerce's integration tests, as its own
// process: the module-boundary rule keeps commerce (tests included) from importing another app, so
// it runs from its entry point with tsx, as market's harness runs wallet-ledger.

export const SANDBOX_DOMAIN = 'sandbox-merchant.local';

export interface SandboxMerchantProcess {
  /** http://127.0.0.1:<port> (its REST endpoint and what MERCHANT_DIRECTORY maps to). */
  url: string;
  port: number;
  profileUrl: string;
  /** MERCHANT_DIRECTORY JSON naming it `sandbox-merchant.local` (plus `extra` entries). */
  directory(extra?: Record<string, string>): string;
  stop(): Promise<void>;
}

const repoRoot = resolve(__dirname, '../../../..');

/** Starts it (state in memory, signing key generated) and waits for GET /health. */
export async function startSandboxMerchantProcess(env: Record<string, string> = {}): Promise<SandboxMerchantProcess> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'apps/sandbox-merchant/src/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', EXCHANGE_ENV: 'sandbox', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start the sandbox merchant');
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sandbox merchant exited while starting:\n${stderr}`);
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      kill('SIGKILL');
      throw new Error(`sandbox merchant did not start:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    profileUrl: `${url}/.well-known/ucp`,
    directory: (extra = {}) => JSON.stringify({ [SANDBOX_DOMAIN]: url, ...extra }),
    stop: async () => {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
