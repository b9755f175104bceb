// GET /v1/ledger/check (operator): the wallet-ledger reconciles every balance with its journal.
import type { Transport } from './transport';
import type { api } from './wire';

export type LedgerDiscrepancy = api.LedgerDiscrepancy;
/** `global_sums`: per currency, the sum of every account ("0" when the books balance). */
export type LedgerCheckReport = api.CheckLedgerResponse;

export class LedgerApi {
  constructor(private readonly transport: Transport) {}

  /** Operator token only; answers 200 either way — read `ok` and `discrepancies`. */
  check(): Promise<LedgerCheckReport> {
    return this.transport.request<LedgerCheckReport>({ method: 'GET', path: '/v1/ledger/check' });
  }
}
