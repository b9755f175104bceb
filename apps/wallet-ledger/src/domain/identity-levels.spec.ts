import { IDENTITY_LEVELS, levelRank, requireLevel, withdrawalLimit, type IdentityLevel } from './identity-levels';

const U = 1_000_000n;

describe('identity level rules', () => {
  describe('requireLevel (capabilities are cumulative)', () => {
    const pairs = IDENTITY_LEVELS.flatMap((required) => IDENTITY_LEVELS.map((current) => [required, current] as [IdentityLevel, IdentityLevel]));

    it.each(pairs.filter(([r, c]) => levelRank(c) >= levelRank(r)))('should let %s be met by %s', (required, current) => {
      expect(() => requireLevel(required, current)).not.toThrow();
    });

    it.each(pairs.filter(([r, c]) => levelRank(c) < levelRank(r)))('should refuse %s to %s, naming both', (required, current) => {
      expect(() => requireLevel(required, current)).toThrow(
        expect.objectContaining({
          code: 'identity_level_insufficient',
          message: `identity level ${required} or higher is required; this agent is ${current}`,
          details: { required, current },
        }),
      );
    });

    it('should never refuse a level at or above the one it requires (issue 13: "SANDBOX_UNVERIFIED or higher … current MAINNET_BASIC")', () => {
      for (const level of IDENTITY_LEVELS) expect(() => requireLevel('SANDBOX_UNVERIFIED', level)).not.toThrow();
    });
  });

  it.each([
    ['MAINNET_ATTESTED', 1000n * U],
    ['MAINNET_VERIFIED', 100000n * U],
    ['MAINNET_INSTITUTIONAL', 123n * U],
  ] as const)('should limit %s withdrawals to %s micro per day', (level, limit) => {
    expect(withdrawalLimit(level, 123n * U)).toBe(limit);
  });

  it.each(['SANDBOX_UNVERIFIED', 'MAINNET_BASIC'] as const)('should refuse withdrawals at %s', (level) => {
    expect(() => withdrawalLimit(level, 0n)).toThrow(
      expect.objectContaining({ code: 'identity_level_insufficient', details: { required: 'MAINNET_ATTESTED', current: level } }),
    );
  });
});
