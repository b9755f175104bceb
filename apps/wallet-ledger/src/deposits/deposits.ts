import { DEPOSIT_TRANSITIONS, transition } from '../domain/state-machine';
import type { Deposit } from '../domain/wallet.model';

// Deposit lifecycle: pending → confirmed (credits the wallet, one journal entry) | expired.

export function confirmedDeposit(deposit: Deposit, entryId: string, now: Date): Deposit {
  return { ...deposit, status: transition('deposit', DEPOSIT_TRANSITIONS, deposit.status, 'confirmed'), journalEntryId: entryId, updatedAt: now };
}

export function expiredDeposit(deposit: Deposit, now: Date): Deposit {
  return { ...deposit, status: transition('deposit', DEPOSIT_TRANSITIONS, deposit.status, 'expired'), updatedAt: now };
}
