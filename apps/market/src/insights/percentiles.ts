// Percentiles of clearing prices in BIGINT micro-units (apps/market/README.md "Price index"):
// linear interpolation between closest ranks (Hyndman–Fan type 7, numpy's default), with the
// fraction kept exact and the result rounded half up to a micro-unit.

/** The p = num/den percentile of ascending, non-empty, non-negative `sorted`. */
export function percentile(sorted: readonly bigint[], num: bigint, den: bigint): bigint {
  if (sorted.length === 0) throw new Error('percentile of an empty list');
  // h = (n − 1)·p; lo = floor(h); value = x[lo] + (h − lo)·(x[lo+1] − x[lo])
  const scaled = BigInt(sorted.length - 1) * num; // h·den
  const lo = Number(scaled / den);
  const rem = scaled % den; // (h − lo)·den
  if (rem === 0n) return sorted[lo];
  const exact = sorted[lo] * den + rem * (sorted[lo + 1] - sorted[lo]); // value·den
  return (2n * exact + den) / (2n * den); // half up (values are ≥ 0)
}

export interface PriceStats {
  count: number;
  min: bigint;
  p25: bigint;
  median: bigint;
  p75: bigint;
  max: bigint;
}

export function priceStats(values: readonly bigint[]): PriceStats {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    count: sorted.length,
    min: sorted[0],
    p25: percentile(sorted, 1n, 4n),
    median: percentile(sorted, 1n, 2n),
    p75: percentile(sorted, 3n, 4n),
    max: sorted[sorted.length - 1],
  };
}

export interface PricedContract {
  tags: readonly string[];
  currency: string;
  price: bigint;
}

/** One row per (tag, currency), a contract counting in each of its tags; sorted by tag then currency. */
export function priceIndex(contracts: readonly PricedContract[], onlyTag: string | null): Array<{ tag: string; currency: string } & PriceStats> {
  const groups = new Map<string, { tag: string; currency: string; prices: bigint[] }>();
  for (const c of contracts) {
    for (const tag of new Set(c.tags)) {
      if (onlyTag !== null && tag !== onlyTag) continue;
      const key = `${tag}\u0000${c.currency}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { tag, currency: c.currency, prices: [] }));
      g.prices.push(c.price);
    }
  }
  return [...groups.values()]
    .sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
    .map((g) => ({ tag: g.tag, currency: g.currency, ...priceStats(g.prices) }));
}
