// Percentiles and summaries of latency samples (milliseconds).
import type { StepFigures } from './scenario';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function summarize(samples: number[]): StepFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.length === 0 ? NaN : sorted.reduce((s, v) => s + v, 0) / sorted.length;
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}
