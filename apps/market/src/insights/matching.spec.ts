import { clampBoost, noMatchingSignals } from './matching';

describe('MatchingSignals hook', () => {
  it('should answer no boosts by default (matching absent)', async () => {
    expect((await noMatchingSignals.forSellers('ctr_1', ['a', 'b'])).size).toBe(0);
    expect((await noMatchingSignals.forContracts('a', ['ctr_1'])).size).toBe(0);
  });
  it('should clamp boosts to 0–1 and drop non-numbers', () => {
    expect(clampBoost(undefined)).toBeNull();
    expect(clampBoost(Number.NaN)).toBeNull();
    expect(clampBoost(1.7)).toBe(1);
    expect(clampBoost(-0.2)).toBe(0);
    expect(clampBoost(0.4)).toBe(0.4);
  });
});
