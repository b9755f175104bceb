import { EXIT_UNREACHABLE, exitCodeFor, formatReport } from './format';
import { fetchReport as realFetch, UnreachableError, type ReportFetcher } from './fetch-report';
import { describeSource, resolveOptions, USAGE, UsageError } from './options';
import { toJson } from './report';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** The whole CLI minus process.exit: parse, ask, print, and return the exit code. */
export async function run(argv: string[], env: NodeJS.ProcessEnv, io: Io, fetchReport: ReportFetcher = realFetch): Promise<number> {
  let options;
  try {
    options = resolveOptions(argv, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`ledger:check: ${err.message}\n\n${USAGE}`);
    return EXIT_UNREACHABLE;
  }
  if (options === 'help') {
    io.out(USAGE);
    return 0;
  }
  const source = describeSource(options.source);
  let report;
  try {
    report = await fetchReport(options.source, options.timeoutMs);
  } catch (err) {
    const message = err instanceof UnreachableError ? err.message : `unexpected failure: ${(err as Error).message ?? String(err)}`;
    if (options.json) io.out(JSON.stringify({ source, reachable: false, error: message }, null, 2));
    io.err(`ledger:check: ${message}`);
    return EXIT_UNREACHABLE;
  }
  io.out(options.json ? JSON.stringify(toJson(report, source), null, 2) : formatReport(report, source));
  return exitCodeFor(report);
}
