import { median, nearestRank, rate } from './rates';

describe('rates', () => {
  it('should divide, and give nothing over a zero denominator', () => {
    expect(rate(1, 4)).toBe(0.25);
    expect(rate(0, 3)).toBe(0);
    expect(rate(0, 0)).toBeUndefined();
  });

  it('should take the middle value, or the two middle ones averaged half up', () => {
    expect(median([])).toBeUndefined();
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 20, 30])).toBe(25);
    expect(median([1, 2])).toBe(2); // 1.5 → 2
  });

  it('should take the nearest rank ⌈p·n⌉', () => {
    expect(nearestRank([], 90)).toBeUndefined();
    expect(nearestRank([5], 90)).toBe(5);
    // n = 10: rank 9; n = 11: rank ⌈9.9⌉ = 10.
    expect(nearestRank([10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 90)).toBe(9);
    expect(nearestRank([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 90)).toBe(10);
    expect(nearestRank([3, 1, 2], 50)).toBe(2);
  });
});
