// A closed-loop load: `concurrency` loops, each awaiting one operation after the other, for a
// fixed time. Latency is per operation (including any wait for a pool connection or channel).
import type { LoadResult } from './scenario';
import { percentile } from './stats';

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
  latencies.sort((a, b) => a - b);
  return { name, rps: latencies.length / elapsedS, p50: percentile(latencies, 50), p99: percentile(latencies, 99), ok: latencies.length, errors, sampleErrors };
}
