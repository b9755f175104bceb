import { errors } from '@exchange/platform';
import type { ContractStatus, DisputeStatus, OfferStatus, ResultStatus } from './model';

// Transition tables (common.md "Contracts", "Offers", "Results", "Disputes"). Every move not
// listed is 409 invalid_state with details {current, wanted}.

export const CONTRACT_TRANSITIONS: Readonly<Record<ContractStatus, readonly ContractStatus[]>> = {
  open: ['awarded', 'cancelled', 'expired'],
  // expired: deadline + grace passed without delivery (escrow released); disputed: either party.
  awarded: ['delivered', 'cancelled', 'expired', 'disputed'],
  // awarded again after a failed verification.
  delivered: ['accepted', 'awarded', 'disputed'],
  accepted: ['settled', 'disputed'],
  // disputed only within the dispute window (checked separately); corrected is part 2.
  settled: ['disputed', 'corrected'],
  disputed: ['settled', 'refunded', 'split'],
  refunded: [],
  split: [],
  cancelled: [],
  expired: [],
  corrected: [],
};

export const OFFER_TRANSITIONS: Readonly<Record<OfferStatus, readonly OfferStatus[]>> = {
  submitted: ['awarded', 'rejected', 'withdrawn'],
  awarded: [],
  rejected: [],
  withdrawn: [],
};

export const RESULT_TRANSITIONS: Readonly<Record<ResultStatus, readonly ResultStatus[]>> = {
  submitted: ['accepted', 'rejected'],
  accepted: [],
  rejected: [],
};

export const DISPUTE_TRANSITIONS: Readonly<Record<DisputeStatus, readonly DisputeStatus[]>> = {
  open: ['resolved'],
  resolved: [],
};

const TABLES = {
  contract: CONTRACT_TRANSITIONS,
  offer: OFFER_TRANSITIONS,
  result: RESULT_TRANSITIONS,
  dispute: DISPUTE_TRANSITIONS,
} as const;

export type Entity = keyof typeof TABLES;
type StatusOf<E extends Entity> = keyof (typeof TABLES)[E] & string;

export function canTransition<E extends Entity>(entity: E, current: StatusOf<E>, wanted: StatusOf<E>): boolean {
  const table = TABLES[entity] as Record<string, readonly string[]>;
  return (table[current] ?? []).includes(wanted);
}

/** Returns `wanted` when the move is allowed; else throws 409 invalid_state "<entity> is <current>, cannot become <wanted>". */
export function transition<E extends Entity, S extends StatusOf<E>>(entity: E, current: StatusOf<E>, wanted: S): S {
  if (!canTransition(entity, current, wanted)) throw errors.invalidState(entity, current, wanted);
  return wanted;
}

/** Statuses from which a dispute may be opened (settled only within the window). */
export const DISPUTABLE: readonly ContractStatus[] = ['awarded', 'delivered', 'accepted', 'settled'];

/** settled → disputed only until settled_at + window. */
export function checkDisputeWindow(settledAt: Date | null, now: Date, windowDays: number): void {
  const closes = (settledAt?.getTime() ?? 0) + windowDays * 86_400_000;
  if (settledAt === null || now.getTime() > closes) {
    throw errors.failedPrecondition('dispute_window_closed', `disputes can be opened up to ${windowDays} days after settlement`, {
      settled_at: settledAt?.toISOString() ?? null,
      window_days: windowDays,
    });
  }
}
