import { requireFaucetLevel, withdrawalLimit } from './identity-levels';

const U = 1_000_000n;

describe('identity level rules', () => {
  it('should give the faucet to SANDBOX_UNVERIFIED only', () => {
    expect(() => requireFaucetLevel('SANDBOX_UNVERIFIED')).not.toThrow();
    expect(() => requireFaucetLevel('MAINNET_BASIC')).toThrow(
      expect.objectContaining({ code: 'identity_level_insufficient', details: { required: 'SANDBOX_UNVERIFIED', current: 'MAINNET_BASIC' } }),
    );
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
