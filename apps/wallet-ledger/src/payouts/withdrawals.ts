import { WITHDRAWAL_TRANSITIONS, transition, type WithdrawalStatus } from '../domain/state-machine';
import type { PayoutDestination, Withdrawal } from '../domain/wallet.model';

// Withdrawal lifecycle: requested (funds held) → processing → completed (funds leave) | failed
// (refunded); requested → cancelled (refunded). Every move but → processing is a journal entry.

export function movedWithdrawal(
  withdrawal: Withdrawal,
  wanted: WithdrawalStatus,
  now: Date,
  extra: { entryId?: string; failureReason?: string } = {},
): Withdrawal {
  return {
    ...withdrawal,
    status: transition('withdrawal', WITHDRAWAL_TRANSITIONS, withdrawal.status, wanted),
    failureReason: extra.failureReason ?? withdrawal.failureReason,
    journalEntryIds: extra.entryId ? [...withdrawal.journalEntryIds, extra.entryId] : withdrawal.journalEntryIds,
    updatedAt: now,
  };
}

/** Whether the money goes back to available (and the day's limit usage is given back). */
export function refundsFunds(status: WithdrawalStatus): boolean {
  return status === 'failed' || status === 'cancelled';
}

export const SANDBOX_FAILURE_REASON = 'payout rejected by the sandbox rail (details.simulate = "fail")';

/** The sandbox rail: a destination with details.simulate == "fail" fails, anything else completes. */
export function sandboxPayoutResult(destination: Pick<PayoutDestination, 'details'>): { status: 'completed' } | { status: 'failed'; reason: string } {
  return destination.details['simulate'] === 'fail' ? { status: 'failed', reason: SANDBOX_FAILURE_REASON } : { status: 'completed' };
}
