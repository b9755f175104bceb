import { percentile, priceIndex, priceStats } from './percentiles';

describe('percentile (R-7, half up to a micro-unit)', () => {
  it('should match numpy.percentile on small lists', () => {
    const xs = [10n, 20n, 30n, 40n];
    // h = 3·0.25 = 0.75 → 10 + 0.75·10 = 17.5 → 18 (half up)
    expect(percentile(xs, 1n, 4n)).toBe(18n);
    // h = 1.5 → 20 + 0.5·10 = 25
    expect(percentile(xs, 1n, 2n)).toBe(25n);
    // h = 2.25 → 30 + 0.25·10 = 32.5 → 33
    expect(percentile(xs, 3n, 4n)).toBe(33n);
    expect(percentile([7n], 1n, 2n)).toBe(7n);
    // h = 2 exactly: the middle value
    expect(percentile([1n, 2n, 100n, 1000n, 5000n], 1n, 2n)).toBe(100n);
    // h = 0.25 between 0 and 1: 0.25 → 0; 0.5 → 1 (half up)
    expect(percentile([0n, 1n], 1n, 4n)).toBe(0n);
    expect(percentile([0n, 1n], 1n, 2n)).toBe(1n);
  });

  it('should stay exact beyond 2^53 micro-units', () => {
    const big = 9_000_000_000_000_000_001n;
    expect(percentile([big, big + 2n], 1n, 2n)).toBe(big + 1n);
  });

  it('should refuse an empty list', () => {
    expect(() => percentile([], 1n, 2n)).toThrow();
  });
});

describe('priceStats and priceIndex', () => {
  it('should sort the values and compute every figure', () => {
    expect(priceStats([40_000_000n, 10_000_000n, 30_000_000n, 20_000_000n])).toEqual({
      count: 4,
      min: 10_000_000n,
      p25: 17_500_000n,
      median: 25_000_000n,
      p75: 32_500_000n,
      max: 40_000_000n,
    });
  });

  it('should count a contract in each of its tags, per currency, sorted by tag then currency', () => {
    const rows = priceIndex(
      [
        { tags: ['nlp', 'summary'], currency: 'CREDIT', price: 10n },
        { tags: ['nlp'], currency: 'CREDIT', price: 30n },
        { tags: ['nlp'], currency: 'EUR', price: 5n },
        { tags: ['code', 'code'], currency: 'CREDIT', price: 7n },
      ],
      null,
    );
    expect(rows.map((r) => [r.tag, r.currency, r.count, r.median])).toEqual([
      ['code', 'CREDIT', 1, 7n],
      ['nlp', 'CREDIT', 2, 20n],
      ['nlp', 'EUR', 1, 5n],
      ['summary', 'CREDIT', 1, 10n],
    ]);
    expect(priceIndex([{ tags: ['nlp', 'summary'], currency: 'CREDIT', price: 10n }], 'summary').map((r) => r.tag)).toEqual(['summary']);
    expect(priceIndex([], null)).toEqual([]);
  });
});
