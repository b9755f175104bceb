import { randomBytes } from 'node:crypto';
import { createAgents } from '../lib/agents';
import { exchangeClassifier, type CpuReport } from '../lib/cpu';
import { startExchange, type Mode } from '../lib/exchange';
import { runLoad } from '../lib/load';
import { cpuLine, record, runContext } from '../lib/record';
import { fmt, table } from '../lib/table';

// End-to-end contract benchmark (issue 20). BENCH_PAIRS buyer/seller agent pairs drive contracts
// from create to settled through the gateway (create → offer → award → deliver → verify → read
// settled, lib/contract-flow.ts), BENCH_IN_FLIGHT at a time, in a load-generator process of its
// own. Prints contracts/s, p50/p99 of the whole flow and of each step, which step dominates, CPU per
// process over the window, and names the bottleneck.
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const pairCount = Number(process.env.BENCH_PAIRS ?? 16);
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 16);
const mode = (process.env.BENCH_MODE ?? (process.env.DATABASE_URL && process.env.NATS_URL ? 'distributed' : 'all-in-one')) as Mode;
if (mode !== 'distributed' && mode !== 'all-in-one') throw new Error(`BENCH_MODE=${String(mode)}: distributed or all-in-one`);
const PRICE = '0.01';

/** Names what limits throughput: a saturated machine and its biggest consumer, or waiting. */
function bottleneck(cpu: CpuReport | undefined, slowest: string): string {
  if (!cpu) return `not sampled; the slowest step is ${slowest}`;
  const [top, second] = cpu.byLabel.filter((p) => p.label !== 'everything else on the machine');
  const capacity = cpu.cores * 100;
  if (cpu.machinePct >= 0.85 * capacity) {
    return `CPU: the machine is saturated (${fmt(cpu.machinePct)}% of ${capacity}%); the biggest consumer is ${top?.label} (${fmt(top?.pct ?? NaN)}%), then ${second?.label} (${fmt(second?.pct ?? NaN)}%); the slowest step is ${slowest}`;
  }
  return `not CPU (machine ${fmt(cpu.machinePct)}% of ${capacity}%): the flow waits — on round trips, locks or commits — longest in ${slowest}; the busiest process is ${top?.label} (${fmt(top?.pct ?? NaN)}%)`;
}

async function main() {
  const token = `bench-${randomBytes(12).toString('hex')}`;
  const exchange = await startExchange({ mode, token, label: 'contracts' });
  let measured: Awaited<ReturnType<typeof runLoad>>;
  try {
    const ns = `bench-${randomBytes(3).toString('hex')}`;
    const buyers = await createAgents(exchange.url, token, { namespace: ns, name: 'buyer', count: pairCount, fund: '200' });
    const sellers = await createAgents(exchange.url, token, { namespace: ns, name: 'seller', count: pairCount });
    measured = await runLoad(
      {
        kind: 'contracts',
        name: 'contract, create to settled',
        url: exchange.url,
        operatorToken: token,
        pairs: buyers.map((buyer, i) => ({ buyer, seller: sellers[i] })),
        inFlight,
        price: PRICE,
        seconds,
        warmupSeconds: warmup,
      },
      exchangeClassifier({ sutGroup: exchange.pgid, dbPrefix: exchange.dbPrefix }),
    );
  } finally {
    await exchange.stop();
  }
  const { result, cpu } = measured;
  const steps = Object.entries(result.steps ?? {});
  const stepTotal = steps.reduce((s, [, f]) => s + f.mean, 0);
  const slowest = steps.reduce((a, b) => (b[1].mean > a[1].mean ? b : a), steps[0]);
  const lines = [
    `Contract benchmark: ${pairCount} buyer/seller pairs, ${inFlight} contracts in flight, ${seconds} s after a ${warmup} s warm-up, price ${PRICE} CREDIT, verification by the buyer`,
    ...runContext({ tree: exchange.tree, mode }),
    '',
    ...table(
      ['row', 'contracts/s', 'p50 ms', 'p99 ms', 'mean ms', 'share', 'failed'],
      [
        [result.name, fmt(result.rps, 1), fmt(result.p50, 1), fmt(result.p99, 1), fmt(result.ok ? stepTotal : NaN, 1), '100%', String(result.errors)],
        ...steps.map(([name, f]) => [`  step: ${name}`, '', fmt(f.p50, 1), fmt(f.p99, 1), fmt(f.mean, 1), `${fmt((100 * f.mean) / stepTotal, 1)}%`, '']),
      ],
    ),
    '',
    `Dominant step: ${slowest ? `${slowest[0]} (${fmt((100 * slowest[1].mean) / stepTotal, 1)}% of the flow)` : '-'}`,
    `Bottleneck: ${bottleneck(cpu, slowest?.[0] ?? '-')}`,
    'CPU over the measured window:',
    cpuLine(cpu),
    ...result.sampleErrors.map((e) => `    failed: ${e}`),
  ];
  console.log(`\n${lines.join('\n')}`);
  record(`contracts (${mode})`, lines);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
