import { formatAmount } from '@exchange/platform';
import { marketV1, marketV1Wire, type DomainEnum } from '@exchange/proto';
import type {
  Contract,
  ContractStatus,
  Dispute,
  DisputeOutcome,
  DisputeStatus,
  EscrowStatus,
  Listing,
  Offer,
  OfferStatus,
  Result,
  ResultStatus,
  Verdict,
  VerificationMode,
  VerificationReport,
  Verifier,
  VerifierListing,
} from '../domain/model';
import type { MetricsWindow } from '../domain/verification';
import { toProtoReview } from './governance.encode';

// domain → proto, shared by the outbox events (data) and the gRPC answers (the areas' *.mapper.ts).
// Enums: the generated proto ⇄ wire-name tables, typed with the domain's names (which must be
// exactly the wire names, or this does not compile: see DomainEnum in libs/proto).
const W = marketV1Wire;
export const contractStatus: DomainEnum<typeof W.contractStatus, ContractStatus> = W.contractStatus;
export const verificationMode: DomainEnum<typeof W.verificationMode, VerificationMode> = W.verificationMode;
export const escrowStatus: DomainEnum<typeof W.escrowStatus, EscrowStatus> = W.escrowStatus;
export const offerStatus: DomainEnum<typeof W.offerStatus, OfferStatus> = W.offerStatus;
export const resultStatus: DomainEnum<typeof W.resultStatus, ResultStatus> = W.resultStatus;
export const disputeStatus: DomainEnum<typeof W.disputeStatus, DisputeStatus> = W.disputeStatus;
export const disputeOutcome: DomainEnum<typeof W.disputeOutcome, DisputeOutcome> = W.disputeOutcome;
export const verdict: DomainEnum<typeof W.verdict, Verdict> = W.verdict;
export const metricsWindow: DomainEnum<typeof W.verificationWindow, MetricsWindow> = W.verificationWindow;

const money = (amount: bigint, currency: string) => ({ amount: formatAmount(amount), currency });
const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function toProtoContract(c: Contract): marketV1.Contract {
  return {
    contractId: c.contractId,
    buyerId: c.buyerId,
    title: c.title,
    description: c.description,
    tags: c.tags,
    budget: money(c.budget, c.currency),
    deadline: c.deadline,
    acceptanceCriteria: c.acceptanceCriteria,
    verificationMode: verificationMode.toProto(c.verificationMode),
    verifierId: opt(c.verifierId),
    listingId: opt(c.listingId),
    status: contractStatus.toProto(c.status),
    sellerId: opt(c.sellerId),
    awardedOfferId: opt(c.awardedOfferId),
    price: c.price === null ? undefined : money(c.price, c.currency),
    holdId: opt(c.holdId),
    escrowStatus: escrowStatus.toProto(c.escrowStatus),
    receiptId: opt(c.receiptId),
    disputedFrom: c.disputedFrom === null ? undefined : contractStatus.toProto(c.disputedFrom),
    cancelReason: opt(c.cancelReason),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    awardedAt: opt(c.awardedAt),
    settledAt: opt(c.settledAt),
    buyerPrivate: c.buyerPrivate,
    buyerAlias: opt(c.buyerAlias),
    templateId: opt(c.templateId),
    workProductTemplateId: opt(c.workProductTemplateId),
    fixtureId: opt(c.fixtureId),
    resaleOf: opt(c.resaleOf),
    resaleReview: c.resaleReview ? toProtoReview(c.resaleReview) : undefined,
    sandbox: c.sandbox,
    correctedAt: opt(c.correctedAt),
    correctionReceiptId: opt(c.correctionReceiptId),
    correctionReason: opt(c.correctionReason),
    buyerAliasGeneration: c.buyerAliasGeneration,
    labels: { ...c.labels },
    inputRefs: [...c.inputRefs],
  };
}

export function toProtoListing(l: Listing): marketV1.Listing {
  return {
    listingId: l.listingId,
    sellerId: l.sellerId,
    title: l.title,
    description: l.description,
    tags: l.tags,
    price: money(l.price, l.currency),
    turnaround: opt(l.turnaround),
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
}

export function toProtoOffer(o: Offer): marketV1.Offer {
  return {
    offerId: o.offerId,
    contractId: o.contractId,
    sellerId: o.sellerId,
    price: money(o.price, o.currency),
    eta: o.eta,
    terms: o.terms,
    status: offerStatus.toProto(o.status),
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

export function toProtoResult(r: Result): marketV1.Result {
  return {
    resultId: r.resultId,
    contractId: r.contractId,
    sellerId: r.sellerId,
    summary: r.summary,
    artifactRefs: r.artifactRefs,
    payloadJson: opt(r.payloadJson),
    status: resultStatus.toProto(r.status),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function toProtoReport(r: VerificationReport): marketV1.VerificationReport {
  return {
    reportId: r.reportId,
    contractId: r.contractId,
    resultId: r.resultId,
    verifierId: r.verifierId,
    verdict: verdict.toProto(r.verdict),
    score: r.score,
    checks: r.checks.map((c) => ({ name: c.name, ok: c.ok, detail: c.detail })),
    signature: r.signature,
    createdAt: r.createdAt,
  };
}

export function toProtoVerifier(v: Verifier): marketV1.Verifier {
  return {
    verifierId: v.verifierId,
    name: v.name,
    description: v.description,
    tags: v.tags,
    fee: v.fee === null ? undefined : money(v.fee.amount, v.fee.currency),
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

export function toProtoVerifierListing(v: VerifierListing): marketV1.VerifierListing {
  return {
    verifierListingId: v.verifierListingId,
    verifierId: v.verifierId,
    title: v.title,
    tags: v.tags,
    price: money(v.price, v.currency),
    turnaround: v.turnaround,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

export function toProtoDispute(d: Dispute): marketV1.Dispute {
  return {
    disputeId: d.disputeId,
    contractId: d.contractId,
    openedBy: d.openedBy,
    reason: d.reason,
    evidenceRefs: d.evidenceRefs,
    status: disputeStatus.toProto(d.status),
    outcome: d.outcome === null ? undefined : disputeOutcome.toProto(d.outcome),
    sellerShareBps: opt(d.sellerShareBps),
    rationale: opt(d.rationale),
    resolvedBy: opt(d.resolvedBy),
    resolvedAt: opt(d.resolvedAt),
    receiptId: opt(d.receiptId),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}
