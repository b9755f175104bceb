import { createServiceClient } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { closedLoop, type Figures } from './closed-loop';
import { startDistributedExchange, type RunningExchange } from './exchange-process';
import { setupSqlTransfers } from './sql-transfer';
import { createFundedWallets } from './wallets';

// Ledger benchmark (issue 3). One run measures the same transfer (random pair of funded wallets,
// 0.000001 CREDIT, a fresh idempotency key each) three ways, at the same concurrency:
//   (a) POST /v1/wallets/{id}/transfer through the gateway (operator token + X-Agent-Id),
//   (b) gRPC Transfer straight to wallet-ledger,
//   (c) the two-row transfer as raw SQL with `pg` on wallet-ledger's database,
// and prints transfers/s, p50/p99 and the ratios a/c, b/c against the goals (b >= 50% of c,
// a >= 35% of c). Distributed mode only (each service its own process): DATABASE_URL and
// NATS_URL must be set. Settings: BENCH_SECONDS (10), BENCH_CONCURRENCY (50), BENCH_WALLETS (100),
// BENCH_PG_POOL (8, wallet-ledger's default WALLET_DB_POOL_MAX), LOG_LEVEL (info).
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const walletCount = Number(process.env.BENCH_WALLETS ?? 100);
const pgPool = Number(process.env.BENCH_PG_POOL ?? 8);
const WARMUP_S = 2;
const AMOUNT = '0.000001';
const GOALS = { b: 0.5, a: 0.35 };

const run = randomBytes(3).toString('hex');
let seq = 0;
const nextKey = (scenario: string) => `bench-${run}-${scenario}-${seq++}`;

function randomPair(count: number): [number, number] {
  const from = Math.floor(Math.random() * count);
  const to = (from + 1 + Math.floor(Math.random() * (count - 1))) % count;
  return [from, to];
}

async function throughGateway(exchange: RunningExchange, wallets: string[]): Promise<Figures> {
  const opts = (duration: number): autocannon.Options => ({
    url: exchange.url,
    connections: concurrency,
    duration,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const [from, to] = randomPair(wallets.length);
          return {
            ...req,
            path: `/v1/wallets/${encodeURIComponent(wallets[from])}/transfer`,
            headers: { authorization: `Bearer ${exchange.token}`, 'x-agent-id': wallets[from], 'content-type': 'application/json' },
            body: JSON.stringify({ to_agent_id: wallets[to], amount: AMOUNT, currency: 'CREDIT', idempotency_key: nextKey('a') }),
          };
        },
      },
    ],
  });
  await autocannon(opts(WARMUP_S));
  const r = await autocannon(opts(seconds));
  const failed = r.non2xx + r.errors;
  return {
    name: '(a) POST /v1/wallets/{id}/transfer (gateway)',
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    errors: failed,
    sampleErrors: failed > 0 ? [`non-2xx ${r.non2xx} (${JSON.stringify(r.statusCodeStats ?? {})}), connection errors ${r.errors}`] : [],
  };
}

async function straightToGrpc(exchange: RunningExchange, wallets: string[]): Promise<Figures> {
  // One channel, as the gateway has one per service.
  const client = createServiceClient(walletV1.WalletLedgerServiceService, exchange.walletGrpc, { defaultDeadlineMs: 30_000 });
  const op = async () => {
    const [from, to] = randomPair(wallets.length);
    await client.transfer({ agentId: wallets[from], toAgentId: wallets[to], amount: AMOUNT, currency: 'CREDIT', memo: undefined, idempotencyKey: nextKey('b') });
  };
  try {
    await closedLoop('warm-up', { concurrency, seconds: WARMUP_S }, op);
    return await closedLoop('(b) gRPC Transfer (wallet-ledger)', { concurrency, seconds }, op);
  } finally {
    client.close();
  }
}

async function rawSql(exchange: RunningExchange, wallets: string[]): Promise<Figures> {
  const sql = await setupSqlTransfers(exchange.walletDatabaseUrl, wallets.length, pgPool);
  try {
    const before = await sql.total();
    const op = async () => {
      const [from, to] = randomPair(wallets.length);
      await sql.transfer(from, to);
    };
    await closedLoop('warm-up', { concurrency, seconds: WARMUP_S }, op);
    const figures = await closedLoop(`(c) raw SQL transfer (pg, pool ${pgPool})`, { concurrency, seconds }, op);
    if ((await sql.total()) !== before) throw new Error('raw SQL baseline: the sum of balances changed');
    return figures;
  } finally {
    await sql.close();
  }
}

async function checkLedger(exchange: RunningExchange): Promise<string> {
  const client = createServiceClient(walletV1.WalletLedgerServiceService, exchange.walletGrpc, { defaultDeadlineMs: 120_000 });
  try {
    const report = await client.checkLedger({});
    return report.ok && report.discrepancies.length === 0
      ? `consistent (${report.entriesChecked} journal entries, ${report.postingsChecked} postings)`
      : `NOT consistent: ${JSON.stringify(walletV1.CheckLedgerResponse.toJSON(report))}`;
  } finally {
    client.close();
  }
}

function report(rows: Figures[], ledgerCheck: string) {
  const [a, b, c] = rows;
  const num = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-').padStart(9);
  console.log(`\nLedger benchmark: ${concurrency} in flight, ${seconds} s per scenario (after a ${WARMUP_S} s warm-up), ${rows.length ? walletCount : 0} wallets, random pairs`);
  console.log('Exchange: distributed (gateway, identity, wallet-ledger in separate processes; PostgreSQL at DATABASE_URL; NATS)\n');
  console.log(`${'scenario'.padEnd(48)}${'xfer/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs (c)'.padStart(9)}  failed`);
  for (const r of rows) {
    console.log(`${r.name.padEnd(48)}${num(r.rps)}${num(r.p50, 1)}${num(r.p99, 1)}${num((100 * r.rps) / c.rps, 1)}%  ${r.errors}`);
    for (const e of r.sampleErrors) console.log(`    ${e}`);
  }
  const verdict = (ratio: number, goal: number) => `${(100 * ratio).toFixed(1)}% (goal >= ${100 * goal}%) -> ${ratio >= goal ? 'met' : 'NOT met'}`;
  console.log(`\nb/c: ${verdict(b.rps / c.rps, GOALS.b)}`);
  console.log(`a/c: ${verdict(a.rps / c.rps, GOALS.a)}`);
  console.log(`CheckLedger after the run: ${ledgerCheck}`);
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  const natsUrl = process.env.NATS_URL;
  if (!databaseUrl || !natsUrl) {
    throw new Error(
      'the ledger benchmark runs the exchange distributed: set DATABASE_URL and NATS_URL, e.g.\n' +
        '  DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres NATS_URL=nats://127.0.0.1:4222 npm run bench:ledger',
    );
  }
  const token = `bench-${randomBytes(12).toString('hex')}`;
  const exchange = await startDistributedExchange({ databaseUrl, natsUrl, token, logLevel: process.env.LOG_LEVEL ?? 'info' });
  try {
    const wallets = await createFundedWallets(exchange.url, token, walletCount, '200');
    const rows = [await throughGateway(exchange, wallets), await straightToGrpc(exchange, wallets), await rawSql(exchange, wallets)];
    report(rows, await checkLedger(exchange));
  } finally {
    await exchange.stop();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
