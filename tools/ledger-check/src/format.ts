import { isConsistent, unbalancedCurrencies, type LedgerReport } from './report';

/** Exit codes of `npm run ledger:check` (README). */
export const EXIT_OK = 0;
export const EXIT_DISCREPANCIES = 1;
export const EXIT_UNREACHABLE = 2;

export function exitCodeFor(report: LedgerReport): number {
  return isConsistent(report) ? EXIT_OK : EXIT_DISCREPANCIES;
}

const thousands = (v: bigint) => v.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The human-readable report: what was checked, the global sums, every discrepancy, the verdict. */
export function formatReport(report: LedgerReport, source: string): string {
  const out: string[] = [`Ledger check (${source})${report.checkedAt ? ` at ${report.checkedAt}` : ''}`, ''];
  out.push(`  accounts checked   ${thousands(report.accountsChecked)}`);
  out.push(`  journal entries    ${thousands(report.entriesChecked)}`);
  out.push(`  postings           ${thousands(report.postingsChecked)}`);
  const currencies = Object.keys(report.globalSums).sort();
  const unbalanced = new Set(unbalancedCurrencies(report));
  if (currencies.length === 0) {
    out.push('  global sums        (no currency has an account yet)');
  } else {
    out.push('  global sums (every account of a currency, must be 0)');
    const width = Math.max(...currencies.map((c) => c.length));
    for (const c of currencies) {
      out.push(`    ${c.padEnd(width)}  ${report.globalSums[c]}${unbalanced.has(c) ? '   <- NOT ZERO' : ''}`);
    }
  }

  if (report.discrepancies.length > 0) {
    const byKind = new Map<string, number>();
    for (const d of report.discrepancies) byKind.set(d.kind, (byKind.get(d.kind) ?? 0) + 1);
    const summary = [...byKind.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`);
    out.push('', `Discrepancies (${report.discrepancies.length}: ${summary.join(', ')})`);
    report.discrepancies.forEach((d, i) => {
      out.push(`  ${i + 1}. ${d.kind}  ${d.subject || '(no subject)'}`);
      if (d.expected !== '' || d.actual !== '') out.push(`     expected ${d.expected || '-'}, actual ${d.actual || '-'}`);
      if (d.detail !== '') out.push(`     ${d.detail}`);
    });
  }

  out.push('');
  if (isConsistent(report)) {
    out.push('Result: OK, the ledger is consistent');
  } else {
    const reasons: string[] = [];
    if (report.discrepancies.length > 0) reasons.push(`${report.discrepancies.length} discrepanc${report.discrepancies.length === 1 ? 'y' : 'ies'}`);
    if (unbalanced.size > 0) reasons.push(`global sum not zero for ${[...unbalanced].join(', ')}`);
    if (!report.ok) reasons.push('the service reported ok=false');
    out.push(`Result: FAILED, ${reasons.join('; ')}`);
  }
  return out.join('\n');
}
