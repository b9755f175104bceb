// A closed-loop load: `concurrency` loops, each awaiting one operation after the other, for a
// fixed time. Latency is per operation (including any wait for a pool connection or channel).
import type { LoadResult } from './scenario';
import { summarize } from './stats';

/** What the load generator tells the harness: the measured window starts or ends (CPU is sampled in it). */
export type Phase = 'measure-start' | 'measure-end';

/** Two different indexes below `count`, uniformly: a random transfer pair. */
export function randomPair(count: number): [number, number] {
  const from = Math.floor(Math.random() * count);
  const to = (from + 1 + Math.floor(Math.random() * (count - 1))) % count;
  return [from, to];
}

export async function closedLoop(name: string, opts: { concurrency: number; seconds: number }, op: (loop: number) => Promise<void>): Promise<LoadResult> {
  const latencies: number[] = [];
  const sampleErrors: string[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + opts.seconds * 1000;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async (_, loop) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await op(loop);
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors++;
          if (sampleErrors.length < 3) sampleErrors.push(err instanceof Error ? err.message : String(err));
        }
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const { p50, p99 } = summarize(latencies);
  return { name, rps: latencies.length / elapsedS, p50, p99, ok: latencies.length, errors, sampleErrors };
}

/** A warm-up closed loop (when `warmupSeconds` > 0, not measured), then the measured one between phase('measure-start') and phase('measure-end'). */
export async function measuredLoop(
  name: string,
  opts: { concurrency: number; seconds: number; warmupSeconds: number },
  op: (loop: number) => Promise<void>,
  phase: (p: Phase) => void,
): Promise<LoadResult> {
  if (opts.warmupSeconds > 0) await closedLoop('warm-up', { concurrency: opts.concurrency, seconds: opts.warmupSeconds }, op);
  phase('measure-start');
  const figures = await closedLoop(name, { concurrency: opts.concurrency, seconds: opts.seconds }, op);
  phase('measure-end');
  return figures;
}
