// What CheckLedger reports: every disagreement between the balances and the journal
// (computed by ledger.repo.ts in one snapshot).

export interface LedgerDiscrepancy {
  kind:
    | 'balance_mismatch'
    | 'unbalanced_entry'
    | 'global_sum'
    | 'negative_available'
    | 'negative_held'
    | 'idempotency_key_two_effects'
    | 'purchase_refunds_exceed_paid'
    | 'proxy_budget_mismatch';
  subject: string;
  expected: string;
  actual: string;
  detail: string;
}

export interface LedgerCheckReport {
  ok: boolean;
  accountsChecked: number;
  entriesChecked: number;
  postingsChecked: number;
  globalSums: Record<string, string>;
  discrepancies: LedgerDiscrepancy[];
  checkedAt: Date;
}
