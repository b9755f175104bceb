// npm run fuzz [-- --seed N] [--long | --duration S] [--requests N] [--concurrency N] [--url U --token T]
// Boots the exchange, creates real resources, sends schema-violating and hostile requests to
// every operation of /openapi.json with operator, agent and no credentials, and fails (exit 1)
// on any 5xx, any error that is not problem+json, a dead or unresponsive process, or an
// inconsistent ledger at the end. Exit 2: bad command line or the exchange could not be set up.
import { randomBytes } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaseStream } from './src/case-stream';
import { createFixtures } from './src/fixtures';
import { ledgerVerdict } from './src/ledger';
import { operationsOf } from './src/openapi';
import { parseOptions, USAGE, UsageError, type Options } from './src/options';
import { sendRaw } from './src/raw-http';
import { formatFailures, groupFailures } from './src/report';
import { runFuzz } from './src/runner';
import { bootExchange, logTail, type Exchange } from './src/stack';

const log = (line: string) => process.stdout.write(`${line}\n`);

interface Target {
  baseUrl: string;
  host: string;
  port: number;
  operatorToken: string;
  exchange: Exchange | null;
}

async function getText(t: Target, path: string, token?: string): Promise<{ status: number; body: string }> {
  const headers: Array<[string, string]> = token ? [['Authorization', `Bearer ${token}`]] : [];
  const res = await sendRaw(t.host, t.port, { method: 'GET', target: path, headers, body: null }, 60_000);
  if (!res.ok) throw new Error(`GET ${path}: ${res.error}`);
  return { status: res.response.status, body: res.response.body.toString('utf8') };
}

/** /health after the run; a 429 (the per-IP budget of public routes) is waited out once. */
async function finalHealth(t: Target): Promise<{ status: number; body: string }> {
  const res = await sendRaw(t.host, t.port, { method: 'GET', target: '/health', headers: [], body: null }, 30_000);
  if (!res.ok) return { status: 0, body: res.error };
  if (res.response.status === 429) {
    await new Promise((r) => setTimeout(r, Math.min(60, Number(res.response.headers['retry-after']) || 10) * 1000 + 500));
    return getText(t, '/health').catch((err: Error) => ({ status: 0, body: err.message }));
  }
  return { status: res.response.status, body: res.response.body.toString('utf8') };
}

async function fuzz(opts: Options, t: Target): Promise<boolean> {
  const openapi = await getText(t, '/openapi.json');
  if (openapi.status !== 200) throw new Error(`GET /openapi.json answered ${openapi.status}`);
  const operations = operationsOf(JSON.parse(openapi.body));
  const fixtures = await createFixtures({
    baseUrl: t.baseUrl,
    operatorToken: t.operatorToken,
    namespace: `fuzz-${randomBytes(3).toString('hex')}`,
    signerCount: opts.signers,
    log,
  });
  for (const s of fixtures.skipped) log(`  setup step skipped: ${s}`);
  const victimId = (fixtures.pools.agent ?? []).find((a) => String(a).endsWith(':agent:victim')) as string | undefined;
  const stream = new CaseStream(operations, { pools: fixtures.pools, signerIds: fixtures.signers.map((s) => s.agentId), archive: fixtures.archive,
    now: Date.now(),
    signingKeys: new Map(fixtures.signers.map((s) => [s.agentId, s.privateKey])),
    commerce: fixtures.commerce,
    metering: fixtures.metering,
    agents: (fixtures.pools.agent ?? []).filter((a): a is string => typeof a === 'string'),
    actorPools: fixtures.actorPools,
    owners: fixtures.owners,
    escrowHolds: new Set(fixtures.escrowHolds),
    targets: fixtures.targets,
  }, opts.seed);

  log(`fuzzing ${operations.length} operations: seed ${opts.seed}, up to ${opts.maxRequests} requests or ${opts.durationSec} s, ${opts.concurrency} in flight`);
  const result = await runFuzz({
    host: t.host,
    port: t.port,
    creds: { operatorToken: t.operatorToken, signers: fixtures.signers, victimId: victimId ?? fixtures.signers[0].agentId },
    stream,
    durationSec: opts.durationSec,
    maxRequests: opts.maxRequests,
    concurrency: opts.concurrency,
    escrowHolds: new Set(fixtures.escrowHolds),
    levels: fixtures.levels,
    deadReason: () => t.exchange?.exitReason() ?? null,
    log,
    ...(opts.trace ? { trace: (entry) => appendFileSync(opts.trace as string, `${JSON.stringify(entry)}\n`) } : {}),
  });

  const problems: string[] = [];
  if (result.fatal) problems.push(result.fatal);
  let ledger = 'ledger not checked (the exchange is gone)';
  if (!result.fatal) {
    const health = await finalHealth(t);
    if (health.status !== 200) problems.push(`/health answered ${health.status} after the run: ${health.body.slice(0, 200)}`);
    const check = await getText(t, '/v1/ledger/check', t.operatorToken).catch((err: Error) => ({ status: 0, body: err.message }));
    const verdict = ledgerVerdict(check.status, check.body);
    ledger = verdict.summary;
    if (!verdict.consistent) problems.push(verdict.summary);
  }

  const classes = groupFailures(result.failures, opts.examples);
  if (classes.length > 0) {
    log(`\n${result.failures.length} offending responses in ${classes.length} classes:`);
    log(formatFailures(classes));
    const file = join(tmpdir(), `exchange-fuzz-failures-${opts.seed}-${Date.now()}.jsonl`);
    writeFileSync(file, result.failures.map((f) => JSON.stringify(f)).join('\n') + '\n');
    log(`every offending request: ${file}`);
    problems.push(`${result.failures.length} offending responses (${classes.length} classes)`);
  }
  if (result.fatal && t.exchange) log(`\nlast lines of the exchange log (${t.exchange.logFile}):\n${logTail(t.exchange.logFile)}`);
  log(`\n${result.stats.format()}`);
  log(ledger);
  log(problems.length === 0 ? '\nfuzz: PASS' : `\nfuzz: FAIL\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return problems.length === 0;
}

async function main(): Promise<number> {
  let opts: Options;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      return 2;
    }
    throw err;
  }
  const started = Date.now();
  let target: Target;
  if (opts.target) {
    const url = new URL(opts.target.url);
    target = { baseUrl: opts.target.url, host: url.hostname, port: Number(url.port || 80), operatorToken: opts.target.token, exchange: null };
  } else {
    try {
      const exchange = await bootExchange({ log });
      target = { baseUrl: exchange.baseUrl, host: exchange.host, port: exchange.port, operatorToken: exchange.operatorToken, exchange };
    } catch (err) {
      process.stderr.write(`fuzz: ${(err as Error).message}\n`);
      return 2;
    }
  }
  // Ctrl-C or a CI timeout: the exchange we started (and its process group) goes with us.
  const onSignal = (signal: NodeJS.Signals) => {
    log(`\nfuzz: ${signal}, stopping the exchange`);
    void (target.exchange?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let passed = false;
  try {
    passed = await fuzz(opts, target);
  } catch (err) {
    process.stderr.write(`fuzz: ${(err as Error).stack ?? (err as Error).message}\n`);
    await target.exchange?.stop({ keepLog: true });
    return 2;
  }
  await target.exchange?.stop({ keepLog: !passed });
  if (!passed && target.exchange) log(`exchange log kept: ${target.exchange.logFile}`);
  log(`total time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fuzz: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
