import { errors } from '@exchange/platform';
import type { CaseStatus } from './case.model';

// The case state machine: open → under_review → approved | denied → closed. Only these moves
// exist; the status a case already has is not a move either (a retried approve must not look
// like a second approval).

const MOVES: Record<CaseStatus, readonly CaseStatus[]> = {
  open: ['under_review'],
  under_review: ['approved', 'denied'],
  approved: ['closed'],
  denied: ['closed'],
  closed: [],
};

export function canMove(from: CaseStatus, to: CaseStatus): boolean {
  return MOVES[from].includes(to);
}

/** `to` when the machine allows it, else 409 invalid_state with `current` and `wanted`. */
export function requireMove(from: CaseStatus, to: CaseStatus): CaseStatus {
  if (!canMove(from, to)) throw errors.invalidState('case', from, to);
  return to;
}

/** Decided: approved, denied or closed. */
export function isDecided(status: CaseStatus): boolean {
  return status !== 'open' && status !== 'under_review';
}

/** Evidence is added until the case is decided; after, 409 invalid_state (wanted `add_evidence`). */
export function requireEvidenceOpen(status: CaseStatus): void {
  if (isDecided(status)) {
    throw errors.failedPrecondition('invalid_state', `case is ${status}: evidence is added only until it is decided`, { current: status, wanted: 'add_evidence' });
  }
}
