// GET /v1/ledger/check (operator): the wallet-ledger reconciles every balance with its journal.
import type { Transport } from './transport';

export interface LedgerDiscrepancy {
  kind: string;
  subject: string;
  expected: string;
  actual: string;
  detail: string;
}

export interface LedgerCheckReport {
  ok: boolean;
  accounts_checked: number;
  entries_checked: number;
  postings_checked: number;
  /** Per currency, the sum of every account ("0" when the books balance). */
  global_sums: Record<string, string>;
  discrepancies: LedgerDiscrepancy[];
  checked_at: string;
}

export class LedgerApi {
  constructor(private readonly transport: Transport) {}

  /** Operator token only; answers 200 either way — read `ok` and `discrepancies`. */
  check(): Promise<LedgerCheckReport> {
    return this.transport.request<LedgerCheckReport>({ method: 'GET', path: '/v1/ledger/check' });
  }
}
