import { marketV1, marketV1Wire, type DomainEnum } from '@exchange/proto';
import type { ResaleReview, ResaleReviewStatus } from '../domain/model';

// ResaleReview domain ⇄ proto; the status through the generated wire table (same names).

const status: DomainEnum<typeof marketV1Wire.resaleReviewStatus, ResaleReviewStatus> = marketV1Wire.resaleReviewStatus;

/** A status filter: absent or UNSPECIFIED → none; an unknown number → null (the caller answers 400). */
export function reviewStatusFromProto(value: marketV1.ResaleReviewStatus | undefined): ResaleReviewStatus | undefined | null {
  if (value === undefined || value === marketV1.ResaleReviewStatus.RESALE_REVIEW_STATUS_UNSPECIFIED) return undefined;
  return status.toWire(value) ?? null;
}

export function toProtoReview(r: ResaleReview): marketV1.ResaleReview {
  return {
    decisionRef: r.decisionRef,
    contractId: r.contractId,
    resaleOf: r.resaleOf,
    rootContractId: r.rootContractId,
    depth: r.depth,
    lineage: r.lineage,
    status: status.toProto(r.status),
    decidedBy: r.decidedBy ?? undefined,
    reason: r.reason ?? undefined,
    decidedAt: r.decidedAt ?? undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
