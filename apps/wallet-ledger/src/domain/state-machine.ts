import { errors } from '@exchange/platform';

/** Allowed moves per state; a state missing from the table is final. */
export type TransitionTable<S extends string> = Readonly<Record<S, readonly S[]>>;

export const HOLD_TRANSITIONS: TransitionTable<HoldStatus> = {
  active: ['released', 'consumed', 'expired'],
  released: [],
  consumed: [],
  expired: [],
};

export const DEPOSIT_TRANSITIONS: TransitionTable<DepositStatus> = {
  pending: ['confirmed', 'expired'],
  confirmed: [],
  expired: [],
};

export const WITHDRAWAL_TRANSITIONS: TransitionTable<WithdrawalStatus> = {
  requested: ['processing', 'cancelled'],
  processing: ['completed', 'failed'],
  completed: [],
  failed: [],
  cancelled: [],
};

export type HoldStatus = 'active' | 'released' | 'consumed' | 'expired';
export type DepositStatus = 'pending' | 'confirmed' | 'expired';
export type WithdrawalStatus = 'requested' | 'processing' | 'completed' | 'failed' | 'cancelled';

export function canTransition<S extends string>(table: TransitionTable<S>, current: S, wanted: S): boolean {
  return table[current].includes(wanted);
}

/** `wanted` when allowed, else FAILED_PRECONDITION invalid_state {current, wanted}. */
export function transition<S extends string>(entity: string, table: TransitionTable<S>, current: S, wanted: S): S {
  if (!canTransition(table, current, wanted)) throw errors.invalidState(entity, current, wanted);
  return wanted;
}
