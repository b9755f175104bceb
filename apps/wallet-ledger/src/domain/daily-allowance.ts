import { formatAmount } from '@exchange/platform';
import { nextUtcMidnight } from './utc-day';
import { walletErrors } from './wallet.errors';

/** 200 CREDIT per (agent, category) per UTC day (DESIGN §4). */
export const FAUCET_DAILY_CAP = 200_000_000n;

export interface Allowance {
  usedAfter: bigint;
  remaining: bigint;
  resetsAt: Date;
}

/**
 * A faucet grant against today's cap: the whole amount fits or it is refused whole
 * (faucet_cap_exceeded with resets_at = next UTC midnight and what remains today).
 */
export function faucetAllowance(input: { grantedToday: bigint; amount: bigint; category: string; now: Date }): Allowance {
  const resetsAt = nextUtcMidnight(input.now);
  const remaining = FAUCET_DAILY_CAP - input.grantedToday;
  if (input.amount > remaining) {
    throw walletErrors.faucetCapExceeded({
      resets_at: resetsAt.toISOString(),
      remaining_today: formatAmount(remaining < 0n ? 0n : remaining),
      category: input.category,
    });
  }
  const usedAfter = input.grantedToday + input.amount;
  return { usedAfter, remaining: FAUCET_DAILY_CAP - usedAfter, resetsAt };
}

/** A withdrawal against the daily limit of the agent's level (refused whole when over). */
export function withdrawalAllowance(input: { limit: bigint; usedToday: bigint; amount: bigint; now: Date }): Allowance {
  const resetsAt = nextUtcMidnight(input.now);
  if (input.usedToday + input.amount > input.limit) {
    throw walletErrors.withdrawalLimitExceeded({
      limit: formatAmount(input.limit),
      used_today: formatAmount(input.usedToday),
      resets_at: resetsAt.toISOString(),
    });
  }
  const usedAfter = input.usedToday + input.amount;
  return { usedAfter, remaining: input.limit - usedAfter, resetsAt };
}
