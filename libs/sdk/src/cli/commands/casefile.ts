// exchange casefile verify <file.tar.gz | file.json> [--exchange-key <base64> | --exchange-url <url>] [--json]
// Verifies a casefile archive — or a docket as JSON (a checkout casefile export's `docket`, or
// that whole answer) — fully offline with @exchange/casefile: the signature against the
// exchange public key you trust (--exchange-key or EXCHANGE_PUBLIC_KEY), and every entry's hash
// (record content; artifact bytes when included). --exchange-url fetches the key from <url>/health
// instead — convenient, but then it is not offline and you trust that URL.
// Exit codes: 0 valid, 1 invalid, 2 unreadable archive or usage error.
import { CasefileUnreadableError, verifyArchive, verifyDocket, type VerifyResult } from '@exchange/casefile';
import { fromBase64 } from '@exchange/crypto';
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { ExchangeClient } from '../../client';
import { resolvePath } from '../context';
import type { CliIo } from '../io';
import { CliExit, CliUsageError, printJson } from '../output';

interface VerifyOptions {
  exchangeKey?: string;
  exchangeUrl?: string;
  json?: boolean;
}

async function trustedKey(io: CliIo, opts: VerifyOptions): Promise<{ key: string; source: string }> {
  let key: string | undefined;
  let source: string;
  if (opts.exchangeKey !== undefined) {
    key = opts.exchangeKey;
    source = '--exchange-key';
  } else if (io.env['EXCHANGE_PUBLIC_KEY']) {
    key = io.env['EXCHANGE_PUBLIC_KEY'];
    source = 'EXCHANGE_PUBLIC_KEY';
  } else if (opts.exchangeUrl !== undefined) {
    source = `${opts.exchangeUrl}/health (not offline)`;
    try {
      const health = await new ExchangeClient({ baseUrl: opts.exchangeUrl, fetch: io.fetch }).health();
      key = health.exchange_public_key ?? undefined;
    } catch (err) {
      throw new CliUsageError('exchange_key_unavailable', `cannot fetch the exchange key from ${opts.exchangeUrl}/health: ${(err as Error).message}`, 2);
    }
  } else {
    throw new CliUsageError('exchange_key_required', 'no exchange public key: pass --exchange-key <base64>, set EXCHANGE_PUBLIC_KEY, or --exchange-url <url>', 2);
  }
  let length = -1;
  try {
    length = fromBase64(key ?? '').length;
  } catch {
    // reported below
  }
  if (key === undefined || length !== 32) throw new CliUsageError('invalid_exchange_key', `the exchange public key from ${source} is not a base64 32-byte ed25519 key`, 2);
  return { key, source };
}

/** A JSON file (first non-blank byte `{`): the docket, or an export answer `{docket}` around it. */
function jsonDocket(bytes: Buffer): unknown | undefined {
  const text = bytes.toString('utf8').trimStart();
  if (!text.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliUsageError('casefile_unreadable', `not a docket: ${(err as Error).message}`, 2);
  }
  const wrapped = (value as { docket?: unknown }).docket;
  return wrapped !== null && typeof wrapped === 'object' ? wrapped : value;
}

function printVerdict(io: CliIo, file: string, result: VerifyResult, keySource: string): void {
  const failed = result.checks.filter((c) => !c.ok).length;
  const lines = [
    `${result.valid ? 'VALID' : 'INVALID'}: ${file}`,
    `  docket: ${result.docket_id || '-'}`,
    `  exchange key: ${keySource}`,
    `  checks: ${result.checks.length} (${failed} failed)`,
    ...result.checks.map((c) => `  ${c.ok ? 'ok  ' : 'FAIL'} ${c.ref}${c.reason ? ` — ${c.reason}` : ''}`),
  ];
  io.stdout(`${lines.join('\n')}\n`);
}

export function addCasefileCommand(program: Command, io: CliIo): void {
  const casefile = program.command('casefile').description('casefile archives (dockets signed by the exchange)');

  casefile
    .command('verify')
    .description('verify a casefile (.tar.gz, or a docket as .json) offline: signature and every hash; exit 0 valid, 1 invalid, 2 unreadable/usage')
    .argument('<file>', 'casefile archive (.tar.gz) from POST /v1/casefiles/export, or a docket JSON (e.g. a checkout casefile export)')
    .option('--exchange-key <base64>', 'exchange public key to trust (env EXCHANGE_PUBLIC_KEY)')
    .option('--exchange-url <url>', 'fetch the exchange public key from <url>/health instead (not offline)')
    .option('--json', 'print the verdict as JSON {valid, docket_id, checks}')
    .action(async (file: string, opts: VerifyOptions) => {
      const { key, source } = await trustedKey(io, opts);
      let bytes: Buffer;
      try {
        bytes = await readFile(resolvePath(io, file));
      } catch (err) {
        throw new CliUsageError('file_unreadable', `cannot read ${file}: ${(err as Error).message}`, 2);
      }
      let result: VerifyResult;
      const docket = jsonDocket(bytes);
      try {
        result = docket !== undefined ? verifyDocket(docket, { trustedPublicKey: key }) : await verifyArchive(bytes, { trustedPublicKey: key });
      } catch (err) {
        if (err instanceof CasefileUnreadableError) throw new CliUsageError(err.code, err.message, 2);
        throw err;
      }
      if (opts.json) printJson(io, result);
      else printVerdict(io, file, result, `${key} (${source})`);
      if (!result.valid) throw new CliExit(1);
    });
}
