import { HOLD_TRANSITIONS, transition } from '../domain/state-machine';
import type { Hold } from '../domain/wallet.model';
import { walletErrors } from '../domain/wallet.errors';
import { formatAmount } from '@exchange/platform';

// Hold lifecycle (DESIGN §4, TigerBeetle two-phase transfers): active → released | consumed |
// expired, each a journal entry. Pure: they return the hold after the move or throw
// invalid_state / amount_exceeds_hold.

export function releasedHold(hold: Hold, entryId: string, now: Date): Hold {
  return {
    ...hold,
    status: transition('hold', HOLD_TRANSITIONS, hold.status, 'released'),
    releasedAmount: hold.amount,
    journalEntryIds: [...hold.journalEntryIds, entryId],
    updatedAt: now,
  };
}

export function expiredHold(hold: Hold, entryId: string, now: Date): Hold {
  return {
    ...hold,
    status: transition('hold', HOLD_TRANSITIONS, hold.status, 'expired'),
    releasedAmount: hold.amount,
    journalEntryIds: [...hold.journalEntryIds, entryId],
    updatedAt: now,
  };
}

/** `amount` (default: all) goes to `toAgentId`; the rest is released back to the owner. */
export function consumedHold(hold: Hold, input: { amount: bigint | null; toAgentId: string }, entryId: string, now: Date): Hold {
  const status = transition('hold', HOLD_TRANSITIONS, hold.status, 'consumed');
  const amount = input.amount ?? hold.amount;
  if (amount > hold.amount) throw walletErrors.amountExceedsHold(formatAmount(amount), formatAmount(hold.amount));
  return {
    ...hold,
    status,
    consumedAmount: amount,
    releasedAmount: hold.amount - amount,
    consumedToAgentId: input.toAgentId,
    journalEntryIds: [...hold.journalEntryIds, entryId],
    updatedAt: now,
  };
}

/** A hold's expiry must lie in the future when it is created. */
export function requireFutureExpiry(expiresAt: Date | undefined, now: Date): Date | null {
  if (expiresAt === undefined) return null;
  if (!(expiresAt.getTime() > now.getTime())) throw walletErrors.invalidExpiresAt();
  return expiresAt;
}
