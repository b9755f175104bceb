import { errors } from '@exchange/platform';
import type { ContractStatus, ResaleReview, ResaleReviewStatus } from '../domain/model';
import { text } from '../domain/validation';

// Resale lineage (subcontracting) and its operator review: pure rules, no I/O.

export type { ResaleReview, ResaleReviewStatus } from '../domain/model';
export type ResaleDecision = 'approve' | 'reject';

export const DEFAULT_RESALE_MAX_DEPTH = 3;

/** The parent statuses a resale may start from: the seller holds the work and has not delivered it for good. */
const RESALEABLE: ReadonlySet<ContractStatus> = new Set(['awarded', 'delivered']);

/**
 * The new contract's buyer must be the parent's awarded seller (403 resale_not_party), and the
 * parent must still be in progress (409 invalid_state).
 */
export function checkResaleParent(parent: { contractId: string; status: ContractStatus; sellerId: string | null }, buyerId: string): void {
  if (parent.sellerId === null || parent.sellerId !== buyerId) {
    throw errors.permissionDenied('resale_not_party', `only the awarded seller of ${parent.contractId} may resell it`, { resale_of: parent.contractId });
  }
  if (!RESALEABLE.has(parent.status)) throw errors.invalidState('contract', parent.status, 'resold (awarded or delivered)');
}

/**
 * The lineage of a resale of the last contract of `chain` (root first). The walk that built
 * `chain` stops after maxDepth + 1 contracts, so a longer chain is always refused here.
 */
export function lineageOf(chain: readonly string[], maxDepth: number): { rootContractId: string; depth: number; lineage: string[] } {
  if (chain.length === 0) throw new Error('a lineage needs its parent');
  if (chain.length > maxDepth) {
    throw errors.failedPrecondition('resale_depth_exceeded', `a resale may be at most ${maxDepth} deep`, { max_depth: maxDepth, depth: chain.length });
  }
  return { rootContractId: chain[0] as string, depth: chain.length, lineage: [...chain] };
}

/** A seller who is a buyer upstream in the lineage would be paid for its own contract again (409 resale_cycle). */
export function checkNoResaleCycle(upstreamBuyers: readonly string[], sellerId: string): void {
  if (upstreamBuyers.includes(sellerId)) {
    throw errors.failedPrecondition('resale_cycle', `${sellerId} is a buyer upstream in this contract's resale lineage`, { seller_id: sellerId });
  }
}

/** Awards wait for the operator: 409 resale_review_pending while the review is pending. */
export function checkAwardable(review: Pick<ResaleReview, 'status' | 'decisionRef'> | null): void {
  if (review !== null && review.status === 'pending') {
    throw errors.failedPrecondition('resale_review_pending', 'the resale lineage review of this contract is still pending', {
      decision_ref: review.decisionRef,
    });
  }
}

export function parseDecision(value: string): ResaleDecision {
  if (value === 'approve' || value === 'reject') return value;
  throw errors.invalidArgument('validation_failed', 'decision must be approve or reject', { field: 'decision' });
}

/** The reason of every governance decision: 1–500 characters. */
export function decisionReason(value: string | undefined): string {
  return text('reason', value, 1, 500);
}

/** PENDING → APPROVED | REJECTED; a decided review → 409 invalid_state. */
export function decide(review: ResaleReview, decision: ResaleDecision, decidedBy: string, reason: string, now: Date): ResaleReview {
  const wanted: ResaleReviewStatus = decision === 'approve' ? 'approved' : 'rejected';
  if (review.status !== 'pending') throw errors.invalidState('resale_review', review.status, wanted);
  return { ...review, status: wanted, decidedBy, reason, decidedAt: now, updatedAt: now };
}

export function rejectionCancelReason(reason: string): string {
  return `resale lineage rejected: ${reason}`;
}
