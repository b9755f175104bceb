import { spawnServiceProcess, type ServiceProcess } from '@exchange/testing';
import { WALLET_LEDGER_SERVICE_NAME } from '../../../src/index';

/** wallet-ledger as its own OS process (`tsx apps/wallet-ledger/src/main.ts`), in its own process group. */
export type LedgerProcess = ServiceProcess;

export function spawnLedgerProcess(env: Record<string, string>, opts: { port: number; startTimeoutMs?: number }): Promise<LedgerProcess> {
  return spawnServiceProcess({ script: 'apps/wallet-ledger/src/main.ts', healthService: WALLET_LEDGER_SERVICE_NAME, env, ...opts });
}
