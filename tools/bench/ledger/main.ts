import { createServiceClient } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { randomBytes } from 'node:crypto';
import { createAgents } from '../lib/agents';
import { exchangeClassifier } from '../lib/cpu';
import { startExchange, type RunningExchange } from '../lib/exchange';
import { runLoad, type Measured } from '../lib/load';
import { cpuLine, record, runContext } from '../lib/record';
import { fmt, pct, table } from '../lib/table';

// Ledger benchmark (issue 20). One run measures the same transfer (random pair of funded wallets,
// 0.000001 CREDIT, a fresh idempotency key each) three ways, at the same concurrency, each load in
// its own process (lib/loadgen.ts):
//   (c) the two-row transfer as raw SQL with `pg` on wallet-ledger's database — the baseline,
//   (b) gRPC Transfer straight to wallet-ledger,
//   (a) POST /v1/wallets/{id}/transfer through the gateway (operator token + X-Agent-Id),
// and prints transfers/s, p50/p99 and each as a share of (c) beside the goals (b >= 100%,
// a >= 60%). Distributed mode only (each service its own process): DATABASE_URL and NATS_URL.
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const walletCount = Number(process.env.BENCH_WALLETS ?? 100);
const pgPool = Number(process.env.BENCH_PG_POOL ?? 8);
const AMOUNT = '0.000001';
const GOALS: Record<string, number> = { b: 1, a: 0.6 };

async function checkLedger(address: string): Promise<string> {
  const client = createServiceClient(walletV1.WalletLedgerServiceService, address, { defaultDeadlineMs: 120_000 });
  try {
    const report = await client.checkLedger({});
    return report.ok && report.discrepancies.length === 0
      ? `consistent (${report.entriesChecked} journal entries, ${report.postingsChecked} postings)`
      : `NOT consistent: ${JSON.stringify(walletV1.CheckLedgerResponse.toJSON(report))}`;
  } finally {
    client.close();
  }
}

async function measure(exchange: RunningExchange): Promise<{ rows: Array<{ key: string } & Measured>; ledger: string }> {
  const wallets = (await createAgents(exchange.url, exchange.token, { namespace: `bench-${randomBytes(3).toString('hex')}`, name: 'w', count: walletCount, fund: '200' })).map(
    (w) => w.agentId,
  );
  const walletGrpc = await exchange.grpcAddress('exchange.wallet.v1.WalletLedgerService');
  const classify = exchangeClassifier({ sutGroup: exchange.pgid, dbPrefix: exchange.dbPrefix });
  const timing = { seconds, warmupSeconds: warmup };
  const rows: Array<{ key: string } & Measured> = [];
  rows.push({
    key: 'c',
    ...(await runLoad(
      { kind: 'pg-transfer', name: `(c) raw SQL transfer (pg, pool ${pgPool})`, databaseUrl: exchange.databaseUrl('wallet-ledger'), accounts: walletCount, pool: pgPool, concurrency, ...timing },
      classify,
    )),
  });
  rows.push({
    key: 'b',
    ...(await runLoad({ kind: 'grpc-transfer', name: '(b) gRPC Transfer (wallet-ledger)', address: walletGrpc, wallets, amount: AMOUNT, concurrency, ...timing }, classify)),
  });
  rows.push({
    key: 'a',
    ...(await runLoad(
      {
        kind: 'http',
        name: '(a) POST /v1/wallets/{id}/transfer (gateway)',
        url: exchange.url,
        connections: concurrency,
        generator: { type: 'transfer', operatorToken: exchange.token, wallets, amount: AMOUNT },
        ...timing,
      },
      classify,
    )),
  });
  return { rows, ledger: await checkLedger(walletGrpc) };
}

async function main() {
  const token = `bench-${randomBytes(12).toString('hex')}`;
  const exchange = await startExchange({ mode: 'distributed', token, label: 'ledger' });
  let measured: Awaited<ReturnType<typeof measure>>;
  try {
    measured = await measure(exchange);
  } finally {
    await exchange.stop();
  }
  const { rows, ledger } = measured;
  const c = rows[0].result;
  const goal = (key: string, rps: number) => (GOALS[key] === undefined ? '' : `>= ${GOALS[key] * 100}%: ${rps >= GOALS[key] * c.rps ? 'met' : 'NOT met'}`);
  const lines = [
    `Ledger benchmark: ${concurrency} in flight, ${seconds} s per row after a ${warmup} s warm-up, ${walletCount} wallets, random pairs; each load in its own process`,
    ...runContext({ tree: exchange.tree, mode: 'distributed' }),
    '',
    ...table(
      ['scenario', 'xfer/s', 'p50 ms', 'p99 ms', 'vs (c)', 'failed', 'goal (vs c)'],
      rows.map((r) => [r.result.name, fmt(r.result.rps), fmt(r.result.p50, 1), fmt(r.result.p99, 1), pct(r.result.rps, c.rps), String(r.result.errors), goal(r.key, r.result.rps)]),
    ),
    '',
    `CheckLedger after the run: ${ledger}`,
    'CPU over each measured window:',
  ];
  for (const r of rows) lines.push(`  ${r.result.name}`, cpuLine(r.cpu), ...r.result.sampleErrors.map((e) => `    failed: ${e}`));
  console.log(`\n${lines.join('\n')}`);
  record('ledger (distributed)', lines);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
