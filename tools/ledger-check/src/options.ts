import { parseArgs } from 'node:util';

export type Source = { kind: 'gateway'; url: string; token: string } | { kind: 'grpc'; address: string };

export interface Options {
  source: Source;
  json: boolean;
  timeoutMs: number;
}

export const DEFAULT_EXCHANGE_URL = 'http://127.0.0.1:8080';
export const DEFAULT_TIMEOUT_MS = 60_000;

export const USAGE = `Usage: npm run ledger:check -- [--url <gateway url>] [--token <operator token>] | [--grpc <host:port>] [--json] [--timeout <ms>]

Reconciles the wallet ledger (CheckLedger: every balance recomputed from the journal).
  through the gateway (default): GET /v1/ledger/check on --url / EXCHANGE_URL (default ${DEFAULT_EXCHANGE_URL})
                                 with --token / OPERATOR_TOKEN
  straight to wallet-ledger:     --grpc host:port / WALLET_LEDGER_GRPC_URL
  --json      print the report as JSON
  --timeout   how long to wait for the answer, ms (default ${DEFAULT_TIMEOUT_MS})
Exit code: 0 consistent, 1 discrepancies, 2 cannot reach the ledger (or a usage error).`;

/** A bad command line: printed with the usage, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Flags first, then the environment; an explicit --url or --grpc wins over the other's variable. */
export function resolveOptions(argv: string[], env: NodeJS.ProcessEnv): Options | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        grpc: { type: 'string' },
        json: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  if (values.url !== undefined && values.grpc !== undefined) throw new UsageError('give either --url or --grpc, not both');

  const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds, got ${values.timeout}`);

  const grpc = values.grpc ?? (values.url === undefined ? nonEmpty(env['WALLET_LEDGER_GRPC_URL']) : undefined);
  if (grpc !== undefined) {
    if (!/^[^\s/:]+:\d{1,5}$/.test(grpc)) throw new UsageError(`the gRPC address must be host:port, got ${JSON.stringify(grpc)}`);
    return { source: { kind: 'grpc', address: grpc }, json: values.json, timeoutMs };
  }

  const url = values.url ?? nonEmpty(env['EXCHANGE_URL']) ?? DEFAULT_EXCHANGE_URL;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new UsageError(`the gateway URL must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  const token = values.token ?? nonEmpty(env['OPERATOR_TOKEN']);
  if (token === undefined) {
    throw new UsageError('the gateway needs an operator token: --token or OPERATOR_TOKEN (or use --grpc host:port)');
  }
  return { source: { kind: 'gateway', url: url.replace(/\/+$/, ''), token }, json: values.json, timeoutMs };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function describeSource(source: Source): string {
  return source.kind === 'grpc' ? `gRPC CheckLedger at ${source.address}` : `GET ${source.url}/v1/ledger/check`;
}
