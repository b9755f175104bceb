import { sample, seededRandom } from './prng';
import { combine, decayEpoch, jaccard, priceFit, rankWithExploration, recency, resolveExplorationRate, resolveLimit, type Candidate } from './recommend';

describe('recommendation signals', () => {
  it('jaccard: shared tags over all tags', () => {
    expect(jaccard(['a', 'b'], ['b', 'c'])).toBeCloseTo(1 / 3, 12);
    expect(jaccard(['a'], ['a'])).toBe(1);
    expect(jaccard([], [])).toBe(0);
    expect(jaccard(['a', 'a'], ['b'])).toBe(0);
  });
  it('priceFit: 1 within the budget, budget/price above, 0.5 unknown', () => {
    expect(priceFit(100n, 100n)).toBe(1);
    expect(priceFit(200n, 100n)).toBe(0.5);
    expect(priceFit(400n, 100n)).toBe(0.25);
    expect(priceFit(null, 100n)).toBe(0.5);
  });
  it('recency: halves every half-life, 0 without activity', () => {
    const now = new Date('2026-01-31T00:00:00Z');
    expect(recency(now, now, 30)).toBe(1);
    expect(recency(new Date('2026-01-01T00:00:00Z'), now, 30)).toBe(0.5);
    expect(recency(null, now, 30)).toBe(0);
  });
  it('decayEpoch: the start of the UTC hour', () => {
    expect(decayEpoch(new Date('2026-01-31T10:59:59.999Z'))).toEqual(new Date('2026-01-31T10:00:00.000Z'));
    expect(decayEpoch(new Date('2026-01-31T11:00:00.000Z'))).toEqual(new Date('2026-01-31T11:00:00.000Z'));
  });
  it('combine: 0.4 tag + 0.3 reputation + 0.2 price + 0.1 recency; matching takes 15%', () => {
    const s = { tagMatch: 0.5, reputation: 0.8, priceFit: 1, recency: 0.5, matching: null };
    // 0.2 + 0.24 + 0.2 + 0.05
    expect(combine(s)).toBeCloseTo(0.69, 9);
    expect(combine({ ...s, matching: 1 })).toBeCloseTo(0.85 * 0.69 + 0.15, 9);
  });
  it('should validate limit 1–50 and exploration_rate 0–1', () => {
    expect(resolveLimit(undefined)).toBe(10);
    expect(resolveExplorationRate(undefined)).toBe(0.1);
    expect(() => resolveLimit(0)).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'limit' } }));
    expect(() => resolveLimit(51)).toThrow(expect.objectContaining({ details: { field: 'limit' } }));
    expect(() => resolveExplorationRate(1.5)).toThrow(expect.objectContaining({ details: { field: 'exploration_rate' } }));
    expect(() => resolveExplorationRate(-0.1)).toThrow(expect.objectContaining({ details: { field: 'exploration_rate' } }));
    expect(resolveExplorationRate(0)).toBe(0);
    expect(resolveExplorationRate(1)).toBe(1);
  });
});

describe('seeded PRNG', () => {
  it('should draw the same sequence for the same request id and another for another', () => {
    const a = seededRandom('req_1');
    const b = seededRandom('req_1');
    const c = seededRandom('req_2');
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });
  it('sample should return distinct items, at most what there is', () => {
    const s = sample([1, 2, 3, 4, 5], 3, seededRandom('x'));
    expect(new Set(s).size).toBe(3);
    expect(sample([1, 2], 5, seededRandom('x')).sort()).toEqual([1, 2]);
  });
});

describe('rankWithExploration', () => {
  // 12 established candidates e00..e11 with descending scores, 6 low-history ones l0..l5 scored low.
  const cand = (id: string, tagMatch: number, lowHistory: boolean): Candidate<null> => ({
    id,
    lowHistory,
    item: null,
    signals: { tagMatch, reputation: 0.5, priceFit: 0.5, recency: 0, matching: null },
  });
  const established = Array.from({ length: 12 }, (_, i) => cand(`e${String(i).padStart(2, '0')}`, 1 - i * 0.05, false));
  const low = Array.from({ length: 6 }, (_, i) => cand(`l${i}`, 0, true));
  const all = [...low, ...established];

  it('should rank by score without exploration', () => {
    const { ranked, explorationSlots } = rankWithExploration(all, 5, 0, 'req');
    expect(explorationSlots).toBe(0);
    expect(ranked.map((r) => r.id)).toEqual(['e00', 'e01', 'e02', 'e03', 'e04']);
    expect(ranked.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
  });

  it('should give round(limit × rate) slots to low-history candidates every k-th slot, deterministically', () => {
    const first = rankWithExploration(all, 10, 0.3, 'req_fixed');
    expect(first.explorationSlots).toBe(3);
    // k = floor(10 / 3) = 3: slots 3, 6, 9
    expect(first.ranked.filter((r) => r.exploration).map((r) => r.rank)).toEqual([3, 6, 9]);
    expect(first.ranked.filter((r) => r.exploration).every((r) => r.lowHistory)).toBe(true);
    expect(first.ranked.filter((r) => !r.exploration).map((r) => r.id)).toEqual(['e00', 'e01', 'e02', 'e03', 'e04', 'e05', 'e06']);
    expect(rankWithExploration(all, 10, 0.3, 'req_fixed')).toEqual(first);
    // another request id draws (possibly) other explorers, never a different share
    const other = rankWithExploration(all, 10, 0.3, 'req_other');
    expect(other.explorationSlots).toBe(3);
    expect(new Set(other.ranked.map((r) => r.id)).size).toBe(10);
  });

  it('should draw explorers spread over the pool across request ids', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) for (const r of rankWithExploration(all, 10, 0.1, `req_${i}`).ranked) if (r.exploration) seen.add(r.id);
    expect(seen.size).toBeGreaterThan(3);
  });

  it('should give the slots back to ranking when the pool is short', () => {
    const { ranked, explorationSlots } = rankWithExploration([...established, low[0]], 10, 0.5, 'req');
    expect(explorationSlots).toBe(1);
    expect(ranked).toHaveLength(10);
    expect(ranked.filter((r) => r.exploration).map((r) => [r.id, r.rank])).toEqual([['l0', 10]]);
    expect(ranked.filter((r) => !r.exploration).map((r) => r.id)).toEqual(established.slice(0, 9).map((c) => c.id));
  });

  it('should not count a low-history candidate already ranked on merit as exploration', () => {
    const strongNewcomer = cand('l-strong', 1.5, true);
    const { ranked } = rankWithExploration([strongNewcomer, ...established], 4, 0.25, 'req');
    expect(ranked[0]).toMatchObject({ id: 'l-strong', exploration: false });
    // the pool is empty (the only newcomer is ranked): the slot goes back to ranking
    expect(ranked.map((r) => r.id)).toEqual(['l-strong', 'e00', 'e01', 'e02']);
  });

  it('should return fewer than limit when there are fewer candidates', () => {
    const { ranked, explorationSlots } = rankWithExploration(low.slice(0, 2), 10, 1, 'req');
    expect(ranked).toHaveLength(2);
    expect(explorationSlots).toBe(2);
    expect(rankWithExploration([], 10, 0.5, 'req')).toEqual({ ranked: [], explorationSlots: 0 });
  });
});
