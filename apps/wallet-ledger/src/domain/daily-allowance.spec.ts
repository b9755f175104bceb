import { status } from '@grpc/grpc-js';
import { FAUCET_DAILY_CAP, faucetAllowance, withdrawalAllowance } from './daily-allowance';

const U = 1_000_000n;

describe('faucetAllowance', () => {
  const now = new Date('2026-11-21T23:59:59.999Z');

  it('should grant up to exactly the cap and report what remains', () => {
    expect(faucetAllowance({ grantedToday: 150n * U, amount: 50n * U, category: 'x', now })).toEqual({
      usedAfter: FAUCET_DAILY_CAP,
      remaining: 0n,
      resetsAt: new Date('2026-11-22T00:00:00.000Z'),
    });
  });

  it('should refuse an amount over the remaining cap whole, with resets_at at the next UTC midnight', () => {
    expect(() => faucetAllowance({ grantedToday: 150n * U, amount: 50n * U + 1n, category: 'compute', now })).toThrow(
      expect.objectContaining({
        grpcCode: status.RESOURCE_EXHAUSTED,
        code: 'faucet_cap_exceeded',
        details: { resets_at: '2026-11-22T00:00:00.000Z', remaining_today: '50', category: 'compute' },
      }),
    );
  });

  it('should start a new day at midnight UTC', () => {
    const midnight = new Date('2026-11-22T00:00:00.000Z');
    expect(faucetAllowance({ grantedToday: 0n, amount: 200n * U, category: 'x', now: midnight }).resetsAt.toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
  });
});

describe('withdrawalAllowance', () => {
  const now = new Date('2026-11-21T10:00:00.000Z');

  it('should allow up to the limit', () => {
    expect(withdrawalAllowance({ limit: 1000n * U, usedToday: 400n * U, amount: 600n * U, now }).remaining).toBe(0n);
  });

  it('should refuse past the limit with limit, used_today and resets_at', () => {
    expect(() => withdrawalAllowance({ limit: 1000n * U, usedToday: 400n * U, amount: 600n * U + 1n, now })).toThrow(
      expect.objectContaining({
        code: 'withdrawal_limit_exceeded',
        details: { limit: '1000', used_today: '400', resets_at: '2026-11-22T00:00:00.000Z' },
      }),
    );
  });
});
