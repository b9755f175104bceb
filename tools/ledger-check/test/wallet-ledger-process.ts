import { createHealthClient } from '@exchange/platform';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

// wallet-ledger as its own process (`tsx apps/wallet-ledger/src/main.ts`), the way ledger:check
// meets it in production: the tool may not import the service (tools reach services over the
// network only), so the test starts the real entry point.

export const repoRoot = resolve(__dirname, '../../..');
const WALLET_SERVICE = 'exchange.wallet.v1.WalletLedgerService';

export interface WalletLedgerProcess {
  address: string;
  stop(): Promise<void>;
}

export async function startWalletLedgerProcess(opts: { databaseUrl: string; identityAddress: string; port: number }): Promise<WalletLedgerProcess> {
  const env = { ...process.env };
  for (const k of ['NATS_URL', 'WALLET_KILL_SWITCHES', 'WALLET_READ_ONLY']) delete env[k];
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'apps/wallet-ledger/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...env,
      DATABASE_URL: opts.databaseUrl,
      GRPC_PORT: String(opts.port),
      GRPC_HOST: '127.0.0.1',
      IDENTITY_GRPC_URL: opts.identityAddress,
      EXCHANGE_SIGNING_KEY: randomBytes(32).toString('base64'),
      EXCHANGE_ENV: 'sandbox',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let tail = '';
  child.stderr.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const pid = child.pid;
  const killGroup = (signal: NodeJS.Signals) => {
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  const address = `127.0.0.1:${opts.port}`;
  const health = createHealthClient(address, { defaultDeadlineMs: 2_000 });
  const deadline = Date.now() + 90_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`wallet-ledger exited with ${child.exitCode}:\n${tail}`);
      if ((await health.check(WALLET_SERVICE).catch(() => 'DOWN')) === 'SERVING') break;
      if (Date.now() > deadline) throw new Error(`wallet-ledger not SERVING within 90 s:\n${tail}`);
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
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => killGroup('SIGKILL'), 30_000);
        await exited;
        clearTimeout(timer);
      }
      killGroup('SIGKILL');
    },
  };
}
