import { prng } from './prng';

describe('prng (mulberry32)', () => {
  it('replays the same stream for a seed, a different one for another, always in [0, 1)', () => {
    const draw = (seed: number) => Array.from({ length: 1000 }, prng(seed));
    const a = draw(42);
    expect(draw(42)).toEqual(a);
    expect(draw(43)).not.toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
    // Spread over the interval, not stuck: every tenth of [0, 1) gets some of 1000 draws.
    expect(new Set(a.map((x) => Math.floor(x * 10))).size).toBe(10);
  });

  it('gives the first values the replaced copies gave for seed 1 (so seeds written down keep replaying)', () => {
    const next = prng(1);
    expect([next(), next(), next()].map((x) => Math.floor(x * 2 ** 32))).toEqual(EXPECTED_SEED_1);
  });
});

// Pinned: the copies this module replaced gave these; another algorithm would change every seed
// a test or a failure message has written down.
const EXPECTED_SEED_1 = [2693262067, 11749833, 2265367787];
