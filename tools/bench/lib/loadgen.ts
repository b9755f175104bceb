import { createServiceClient } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { measuredLoop, randomPair, type Phase } from './closed-loop';
import { contractsLoad } from './contract-flow';
import { httpLoad } from './http-load';
import type { GrpcTransferScenario, LoadResult, PgTransferScenario, Scenario } from './scenario';
import { setupSqlTransfers } from './sql-transfer';

// The load generator, its own process: `tsx tools/bench/lib/loadgen.ts '<scenario JSON>'` runs the
// scenario and prints one JSON LoadResult on stdout. Forked by the harness (lib/load.ts), it also
// tells it over IPC when the measured window starts and ends, so CPU is sampled over that window.

// A harness that went away (interrupted) leaves no channel: the generator then just runs out its time.
const phase = (p: Phase) => {
  if (process.connected) process.send?.({ phase: p });
};

async function grpcTransfers(s: GrpcTransferScenario): Promise<LoadResult> {
  // One channel, as the gateway has one per service.
  const client = createServiceClient(walletV1.WalletLedgerServiceService, s.address, { defaultDeadlineMs: 30_000 });
  let seq = 0;
  const run = Math.random().toString(36).slice(2, 8);
  const op = async () => {
    const [from, to] = randomPair(s.wallets.length);
    await client.transfer({ agentId: s.wallets[from], toAgentId: s.wallets[to], amount: s.amount, currency: 'CREDIT', memo: undefined, idempotencyKey: `bench-${run}-g${seq++}` });
  };
  try {
    return await measuredLoop(s.name, s, op, phase);
  } finally {
    client.close();
  }
}

async function pgTransfers(s: PgTransferScenario): Promise<LoadResult> {
  const sql = await setupSqlTransfers(s.databaseUrl, s.accounts, s.pool);
  try {
    const before = await sql.total();
    const op = async () => {
      const [from, to] = randomPair(s.accounts);
      await sql.transfer(from, to);
    };
    const figures = await measuredLoop(s.name, s, op, phase);
    if ((await sql.total()) !== before) throw new Error('raw SQL baseline: the sum of balances changed');
    return figures;
  } finally {
    await sql.close();
  }
}

function run(s: Scenario): Promise<LoadResult> {
  switch (s.kind) {
    case 'http':
      return httpLoad(s, phase);
    case 'grpc-transfer':
      return grpcTransfers(s);
    case 'pg-transfer':
      return pgTransfers(s);
    case 'contracts':
      return contractsLoad(s, phase);
  }
}

run(JSON.parse(process.argv[2] ?? '') as Scenario).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.disconnect?.();
  },
  (err: unknown) => {
    process.stderr.write(`load generator failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
  },
);
