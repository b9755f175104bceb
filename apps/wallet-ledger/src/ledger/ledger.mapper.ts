import type { walletV1 } from '@exchange/proto';
import type { LedgerCheckReport } from './ledger-check';

export function toProtoLedgerReport(report: LedgerCheckReport): walletV1.CheckLedgerResponse {
  return {
    ok: report.ok,
    accountsChecked: String(report.accountsChecked),
    entriesChecked: String(report.entriesChecked),
    postingsChecked: String(report.postingsChecked),
    globalSums: report.globalSums,
    discrepancies: report.discrepancies,
    checkedAt: report.checkedAt,
  };
}
