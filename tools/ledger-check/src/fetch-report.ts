import { createServiceClient, errorInfoFromGrpc } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { fromGrpc, fromJson, type LedgerReport } from './report';
import type { Source } from './options';

/** The ledger could not be asked, or did not answer with a report (exit 2). */
export class UnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

export type ReportFetcher = (source: Source, timeoutMs: number) => Promise<LedgerReport>;

export const fetchReport: ReportFetcher = (source, timeoutMs) =>
  source.kind === 'grpc' ? viaGrpc(source.address, timeoutMs) : viaGateway(source.url, source.token, timeoutMs);

async function viaGateway(url: string, token: string, timeoutMs: number): Promise<LedgerReport> {
  let res: Response;
  try {
    res = await fetch(`${url}/v1/ledger/check`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new UnreachableError(`cannot reach the gateway at ${url}: ${causeOf(err)}`);
  }
  const body = await res.text();
  if (res.status !== 200) {
    throw new UnreachableError(`the gateway answered ${res.status}${problemSummary(body)}`);
  }
  try {
    return fromJson(JSON.parse(body));
  } catch (err) {
    throw new UnreachableError(`the gateway's answer is not a ledger report: ${(err as Error).message}`);
  }
}

async function viaGrpc(address: string, timeoutMs: number): Promise<LedgerReport> {
  const client = createServiceClient(walletV1.WalletLedgerServiceService, address, { defaultDeadlineMs: timeoutMs });
  try {
    return fromGrpc(await client.checkLedger({}, { actor: 'operator:ledger-check' }));
  } catch (err) {
    const info = errorInfoFromGrpc(err);
    throw new UnreachableError(`CheckLedger at ${address} failed: ${info.code} (${info.message})`);
  } finally {
    client.close();
  }
}

function causeOf(err: unknown): string {
  // AbortSignal.timeout rejects with a DOMException, which is not an Error in every realm.
  const e = err as { name?: unknown; message?: unknown; cause?: unknown } | null;
  if (e && e.name === 'TimeoutError') return 'no answer before the timeout';
  const cause = e?.cause as { message?: unknown } | undefined;
  if (cause && typeof cause.message === 'string') return cause.message;
  return e && typeof e.message === 'string' ? e.message : String(err);
}

/** ": <code> (<detail>)" of a problem+json body, so 401/403/503 say why. */
function problemSummary(body: string): string {
  try {
    const problem = JSON.parse(body) as { code?: unknown; detail?: unknown; title?: unknown };
    const code = typeof problem.code === 'string' ? problem.code : undefined;
    const detail = typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : undefined;
    if (code || detail) return `: ${[code, detail && `(${detail})`].filter(Boolean).join(' ')}`;
  } catch {
    // not JSON
  }
  return '';
}
