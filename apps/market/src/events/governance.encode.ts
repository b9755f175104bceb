import { marketV1 } from '@exchange/proto';
import type { ResaleReview, ResaleReviewStatus } from '../domain/model';

// ResaleReview domain ⇄ proto.

const RS = marketV1.ResaleReviewStatus;
const TO_PROTO: Record<ResaleReviewStatus, marketV1.ResaleReviewStatus> = {
  pending: RS.RESALE_REVIEW_STATUS_PENDING,
  approved: RS.RESALE_REVIEW_STATUS_APPROVED,
  rejected: RS.RESALE_REVIEW_STATUS_REJECTED,
};

/** A status filter: absent or UNSPECIFIED → none; an unknown number → null (the caller answers 400). */
export function reviewStatusFromProto(value: marketV1.ResaleReviewStatus | undefined): ResaleReviewStatus | undefined | null {
  if (value === undefined || value === RS.RESALE_REVIEW_STATUS_UNSPECIFIED) return undefined;
  const found = (Object.keys(TO_PROTO) as ResaleReviewStatus[]).find((k) => TO_PROTO[k] === value);
  return found ?? null;
}

export function toProtoReview(r: ResaleReview): marketV1.ResaleReview {
  return {
    decisionRef: r.decisionRef,
    contractId: r.contractId,
    resaleOf: r.resaleOf,
    rootContractId: r.rootContractId,
    depth: r.depth,
    lineage: r.lineage,
    status: TO_PROTO[r.status],
    decidedBy: r.decidedBy ?? undefined,
    reason: r.reason ?? undefined,
    decidedAt: r.decidedAt ?? undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
