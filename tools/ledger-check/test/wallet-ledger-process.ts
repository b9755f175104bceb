import { spawnServiceProcess } from '@exchange/testing';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

// wallet-ledger as its own process (`tsx apps/wallet-ledger/src/main.ts`), the way ledger:check
// meets it in production: the tool may not import the service (tools reach services over the
// network only), so the test starts the real entry point.

export const repoRoot = resolve(__dirname, '../../..');

export interface WalletLedgerProcess {
  address: string;
  stop(): Promise<void>;
}

export async function startWalletLedgerProcess(opts: { databaseUrl: string; identityAddress: string; port: number }): Promise<WalletLedgerProcess> {
  const proc = await spawnServiceProcess({
    script: 'apps/wallet-ledger/src/main.ts',
    healthService: 'exchange.wallet.v1.WalletLedgerService',
    port: opts.port,
    env: {
      DATABASE_URL: opts.databaseUrl,
      IDENTITY_GRPC_URL: opts.identityAddress,
      EXCHANGE_SIGNING_KEY: randomBytes(32).toString('base64'),
      EXCHANGE_ENV: 'sandbox',
      LOG_LEVEL: 'warn',
    },
  });
  return { address: proc.address, stop: async () => void (await proc.stop()) };
}
