import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

// The sandbox merchant (a real UCP business) as its own process: apps never import apps, so the
// commerce tests start apps/sandbox-merchant/src/main.ts with tsx, as libs/testing does for gRPC
// services, and wait for GET /health. Checkout sessions are created over its REST API.

const repoRoot = resolve(__dirname, '../../../..');
const tsxCli = require.resolve('tsx/cli');

export const SANDBOX_DOMAIN = 'sandbox-merchant.local';

export interface SandboxMerchantProcess {
  url: string;
  /** POST/GET on its REST binding; JSON answer. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  stop(): Promise<void>;
}

export async function spawnSandboxMerchant(port: number, env: Record<string, string> = {}): Promise<SandboxMerchantProcess> {
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [tsxCli, 'apps/sandbox-merchant/src/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env['PATH'] ?? '', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, LOG_LEVEL: 'silent', ESCALATION_THRESHOLD: '100000000', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const stop = async () => {
    try {
      process.kill(-(child.pid as number), 'SIGTERM');
    } catch {
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5000)))]);
    clearTimeout(timer);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`sandbox merchant did not start:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    async call(method, path, body) {
      const res = await fetch(`${url}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    },
    stop,
  };
}

/** The sandbox's payment instrument with a test token (success_token pays, fail_token is declined). */
export const sandboxPayment = (token = 'success_token') => ({
  instruments: [{ id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', selected: true, credential: { type: 'token', token } }],
});
