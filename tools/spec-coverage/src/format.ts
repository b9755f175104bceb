import type { CoverageReport } from './coverage';
import { formatEndpoint } from './path-template';

/** Plain-text report: one line per area, its missing routes, then untested routes and totals. */
export function formatReport(report: CoverageReport): string {
  const out: string[] = ['Spec coverage (routes in the gateway OpenAPI document vs. spec §4)', ''];
  const width = Math.max(...report.areas.map((a) => a.name.length));
  for (const a of report.areas) {
    out.push(`${a.name.padEnd(width)}  ${String(a.implemented).padStart(3)}/${String(a.total).padEnd(3)}`);
    for (const e of a.missing) out.push(`    missing  ${formatEndpoint(e)}`);
  }
  const untested = report.areas.flatMap((a) => a.untested.map((e) => `${formatEndpoint(e)}  (${a.name})`));
  out.push('', `Routes without an e2e test (${untested.length}): no apps/*/test/**/*.spec.ts mentions "<METHOD> <path>"`);
  for (const line of [...new Set(untested)]) out.push(`    untested  ${line}`);
  if (report.extraRoutes.length > 0) {
    out.push('', `Routes not in spec §4 (${report.extraRoutes.length})`);
    for (const e of report.extraRoutes) out.push(`    extra  ${formatEndpoint(e)}`);
  }
  out.push('', `TOTAL  implemented ${report.implemented}/${report.total}, with e2e test ${report.tested}/${report.total}`);
  return out.join('\n');
}
