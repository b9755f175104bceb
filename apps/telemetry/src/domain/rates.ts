// Rates and order statistics of the reports and outcome metrics (README "Reports and outcome metrics").

/** numerator / denominator; undefined when the denominator is 0 (the proto field is then absent). */
export function rate(numerator: number, denominator: number): number | undefined {
  return denominator === 0 ? undefined : numerator / denominator;
}

function ascending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Median of integers (ms): the middle value, or the mean of the two middle ones rounded half up; undefined when empty. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = ascending(values);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid];
  return Math.floor((sorted[mid - 1] + sorted[mid] + 1) / 2);
}

/** Nearest-rank percentile (p in (0, 100]): the value at rank ⌈p/100 · n⌉; undefined when empty. */
export function nearestRank(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = ascending(values);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}
