// The closing check: GET /v1/ledger/check (operator) must report consistent books after
// everything the fuzzer did. The verdict is not taken on trust: `ok` with a discrepancy or a
// currency whose global sum is not zero is inconsistent too (as tools/ledger-check does).

export interface LedgerVerdict {
  consistent: boolean;
  summary: string;
}

export function ledgerVerdict(status: number, body: string): LedgerVerdict {
  if (status !== 200) return { consistent: false, summary: `GET /v1/ledger/check answered ${status}: ${body.slice(0, 200)}` };
  let report: { ok?: unknown; discrepancies?: unknown; global_sums?: unknown; accounts_checked?: unknown; entries_checked?: unknown };
  try {
    report = JSON.parse(body);
  } catch {
    return { consistent: false, summary: 'GET /v1/ledger/check did not answer JSON' };
  }
  const discrepancies = Array.isArray(report.discrepancies) ? report.discrepancies : null;
  const sums = typeof report.global_sums === 'object' && report.global_sums !== null ? (report.global_sums as Record<string, unknown>) : null;
  if (discrepancies === null || sums === null || typeof report.ok !== 'boolean') return { consistent: false, summary: 'GET /v1/ledger/check: not a ledger report' };
  const unbalanced = Object.entries(sums).filter(([, v]) => !/^-?0+(\.0+)?$/.test(String(v)));
  const consistent = report.ok && discrepancies.length === 0 && unbalanced.length === 0;
  const figures = `${String(report.accounts_checked)} accounts, ${String(report.entries_checked)} entries, sums ${JSON.stringify(sums)}`;
  if (consistent) return { consistent, summary: `ledger consistent (${figures})` };
  const kinds = discrepancies.map((d) => (d as { kind?: unknown }).kind).join(', ');
  return {
    consistent: false,
    summary: `ledger INCONSISTENT: ok=${String(report.ok)}, ${discrepancies.length} discrepancies${kinds ? ` (${kinds})` : ''}${unbalanced.length ? `, unbalanced ${unbalanced.map(([c, v]) => `${c} ${String(v)}`).join(', ')}` : ''} (${figures})`,
  };
}
