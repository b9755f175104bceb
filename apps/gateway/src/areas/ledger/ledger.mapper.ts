import { walletV1 } from '@exchange/proto';
import type { LedgerCheckReportJson } from './ledger.schemas';

// CheckLedger (proto, int64 counts as strings) → the REST report (counts as JSON numbers: a
// ledger check counts rows, far below 2^53).

export function ledgerReportToJson(res: walletV1.CheckLedgerResponse): LedgerCheckReportJson {
  return {
    ok: res.ok,
    accounts_checked: Number(res.accountsChecked),
    entries_checked: Number(res.entriesChecked),
    postings_checked: Number(res.postingsChecked),
    global_sums: { ...res.globalSums },
    discrepancies: res.discrepancies.map((d) => ({ kind: d.kind, subject: d.subject, expected: d.expected, actual: d.actual, detail: d.detail })),
    checked_at: (res.checkedAt ?? new Date(0)).toISOString(),
  };
}
