import { must } from '../domain/invariant';
import { formatAmount } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
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
// Enums: the proto's numbers ⇄ the domain's lowercase names.

function enumMap<D extends string>(pairs: Array<[D, number]>) {
  const toProto = new Map<D, number>(pairs);
  const fromProto = new Map<number, D>(pairs.map(([d, p]) => [p, d]));
  return {
    toProto: (d: D) => must(toProto.get(d), `enum value ${d}`),
    fromProto: (p: number | undefined): D | undefined => (p === undefined ? undefined : fromProto.get(p)),
  };
}

const S = marketV1.ContractStatus;
export const contractStatus = enumMap<ContractStatus>([
  ['open', S.CONTRACT_STATUS_OPEN],
  ['awarded', S.CONTRACT_STATUS_AWARDED],
  ['delivered', S.CONTRACT_STATUS_DELIVERED],
  ['accepted', S.CONTRACT_STATUS_ACCEPTED],
  ['settled', S.CONTRACT_STATUS_SETTLED],
  ['disputed', S.CONTRACT_STATUS_DISPUTED],
  ['refunded', S.CONTRACT_STATUS_REFUNDED],
  ['split', S.CONTRACT_STATUS_SPLIT],
  ['cancelled', S.CONTRACT_STATUS_CANCELLED],
  ['expired', S.CONTRACT_STATUS_EXPIRED],
  ['corrected', S.CONTRACT_STATUS_CORRECTED],
]);
const M = marketV1.VerificationMode;
export const verificationMode = enumMap<VerificationMode>([
  ['verifier', M.VERIFICATION_MODE_VERIFIER],
  ['buyer', M.VERIFICATION_MODE_BUYER],
  ['auto', M.VERIFICATION_MODE_AUTO],
]);
const E = marketV1.EscrowStatus;
export const escrowStatus = enumMap<EscrowStatus>([
  ['none', E.ESCROW_STATUS_NONE],
  ['held', E.ESCROW_STATUS_HELD],
  ['settled', E.ESCROW_STATUS_SETTLED],
  ['released', E.ESCROW_STATUS_RELEASED],
]);
const O = marketV1.OfferStatus;
export const offerStatus = enumMap<OfferStatus>([
  ['submitted', O.OFFER_STATUS_SUBMITTED],
  ['awarded', O.OFFER_STATUS_AWARDED],
  ['rejected', O.OFFER_STATUS_REJECTED],
  ['withdrawn', O.OFFER_STATUS_WITHDRAWN],
]);
const R = marketV1.ResultStatus;
export const resultStatus = enumMap<ResultStatus>([
  ['submitted', R.RESULT_STATUS_SUBMITTED],
  ['accepted', R.RESULT_STATUS_ACCEPTED],
  ['rejected', R.RESULT_STATUS_REJECTED],
]);
const DS = marketV1.DisputeStatus;
export const disputeStatus = enumMap<DisputeStatus>([
  ['open', DS.DISPUTE_STATUS_OPEN],
  ['resolved', DS.DISPUTE_STATUS_RESOLVED],
]);
const DO = marketV1.DisputeOutcome;
export const disputeOutcome = enumMap<DisputeOutcome>([
  ['seller', DO.DISPUTE_OUTCOME_SELLER],
  ['buyer', DO.DISPUTE_OUTCOME_BUYER],
  ['split', DO.DISPUTE_OUTCOME_SPLIT],
]);
const V = marketV1.Verdict;
export const verdict = enumMap<Verdict>([
  ['pass', V.VERDICT_PASS],
  ['fail', V.VERDICT_FAIL],
]);
const W = marketV1.VerificationWindow;
export const metricsWindow = enumMap<MetricsWindow>([
  ['all', W.VERIFICATION_WINDOW_ALL],
  ['1h', W.VERIFICATION_WINDOW_1H],
  ['1d', W.VERIFICATION_WINDOW_1D],
  ['7d', W.VERIFICATION_WINDOW_7D],
]);

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
