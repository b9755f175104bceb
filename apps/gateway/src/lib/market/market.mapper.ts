import { marketV1, marketV1Wire as W } from '@exchange/proto';
import type { ContractJson, ResaleReviewJson } from '../../areas/contracts/contracts.schemas';
import type { DisputeJson } from '../../areas/disputes/disputes.schemas';
import type { ListingJson } from '../../areas/listings/listings.schemas';
import type { OfferJson } from '../../areas/offers/offers.schemas';
import type { ResultJson } from '../../areas/results/results.schemas';
import type { VerificationMetricsJson, VerificationReportJson, VerifierJson, VerifierListingJson } from '../../areas/verification/verification.schemas';
import { contractChecks, isoOrNull, MarketContractError, moneyOrNull, orNull } from '../mapper-kit';

// Proto ⇄ REST for the market areas: enums `CONTRACT_STATUS_OPEN` ⇄ `open` (tables generated
// from market.proto; the request side in market.enums.ts), Dates ⇄ RFC 3339, absent optionals ⇄
// null, int64 strings ⇄ numbers, `payload_json` ⇄ `payload` (parsed JSON). Pure functions, no I/O.

const { required, enumToJson, parsedJson, iso, money } = contractChecks((what) => new MarketContractError(what));

/** `payload` (any JSON value) → `payload_json`; absent stays absent. */
export function payloadToJsonText(payload: unknown): string | undefined {
  return payload === undefined ? undefined : JSON.stringify(payload);
}

/** int64 fields arrive as decimal strings; counts and milliseconds fit a JS number. */
const int = (value: string, what: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new MarketContractError(what);
  return n;
};

export function contractToJson(contract: marketV1.Contract | undefined): ContractJson {
  const c = required(contract, 'contract');
  return {
    contract_id: c.contractId,
    // The market empties buyer_id for viewers who may not see a private buyer.
    buyer_id: c.buyerId === '' ? null : c.buyerId,
    buyer_private: c.buyerPrivate,
    buyer_alias: orNull(c.buyerAlias),
    title: c.title,
    description: c.description,
    tags: [...c.tags],
    budget: money(c.budget, 'contract budget'),
    deadline: iso(c.deadline, 'contract deadline'),
    acceptance_criteria: c.acceptanceCriteria,
    verification_mode: enumToJson(W.verificationMode, c.verificationMode, 'verification mode'),
    verifier_id: orNull(c.verifierId),
    listing_id: orNull(c.listingId),
    status: enumToJson(W.contractStatus, c.status, 'contract status'),
    seller_id: orNull(c.sellerId),
    awarded_offer_id: orNull(c.awardedOfferId),
    price: moneyOrNull(c.price),
    hold_id: orNull(c.holdId),
    escrow_status: enumToJson(W.escrowStatus, c.escrowStatus, 'escrow status'),
    receipt_id: orNull(c.receiptId),
    disputed_from: c.disputedFrom === undefined ? null : enumToJson(W.contractStatus, c.disputedFrom, 'disputed_from'),
    cancel_reason: orNull(c.cancelReason),
    created_at: iso(c.createdAt, 'contract created_at'),
    updated_at: iso(c.updatedAt, 'contract updated_at'),
    awarded_at: isoOrNull(c.awardedAt),
    settled_at: isoOrNull(c.settledAt),
    template_id: orNull(c.templateId),
    work_product_template_id: orNull(c.workProductTemplateId),
    fixture_id: orNull(c.fixtureId),
    resale_of: orNull(c.resaleOf),
    resale_review: c.resaleReview ? resaleReviewToJson(c.resaleReview) : null,
    sandbox: c.sandbox,
    corrected_at: isoOrNull(c.correctedAt),
    correction_receipt_id: orNull(c.correctionReceiptId),
    correction_reason: orNull(c.correctionReason),
    labels: { ...c.labels },
    input_refs: [...c.inputRefs],
  };
}

export function resaleReviewToJson(review: marketV1.ResaleReview | undefined): ResaleReviewJson {
  const r = required(review, 'resale review');
  return {
    decision_ref: r.decisionRef,
    contract_id: r.contractId,
    resale_of: r.resaleOf,
    root_contract_id: r.rootContractId,
    depth: r.depth,
    lineage: [...r.lineage],
    status: enumToJson(W.resaleReviewStatus, r.status, 'resale review status'),
    decided_by: orNull(r.decidedBy),
    reason: orNull(r.reason),
    decided_at: isoOrNull(r.decidedAt),
    created_at: iso(r.createdAt, 'resale review created_at'),
    updated_at: iso(r.updatedAt, 'resale review updated_at'),
  };
}

export function listingToJson(listing: marketV1.Listing | undefined): ListingJson {
  const l = required(listing, 'listing');
  return {
    listing_id: l.listingId,
    seller_id: l.sellerId,
    title: l.title,
    description: l.description,
    tags: [...l.tags],
    price: money(l.price, 'listing price'),
    turnaround: orNull(l.turnaround),
    created_at: iso(l.createdAt, 'listing created_at'),
    updated_at: iso(l.updatedAt, 'listing updated_at'),
  };
}

export function offerToJson(offer: marketV1.Offer | undefined): OfferJson {
  const o = required(offer, 'offer');
  return {
    offer_id: o.offerId,
    contract_id: o.contractId,
    seller_id: o.sellerId,
    price: money(o.price, 'offer price'),
    eta: iso(o.eta, 'offer eta'),
    terms: o.terms,
    status: enumToJson(W.offerStatus, o.status, 'offer status'),
    created_at: iso(o.createdAt, 'offer created_at'),
    updated_at: iso(o.updatedAt, 'offer updated_at'),
  };
}

export function resultToJson(result: marketV1.Result | undefined): ResultJson {
  const r = required(result, 'result');
  const payload = r.payloadJson === undefined ? null : parsedJson(r.payloadJson, 'result payload_json');
  return {
    result_id: r.resultId,
    contract_id: r.contractId,
    seller_id: r.sellerId,
    summary: r.summary,
    artifact_refs: [...r.artifactRefs],
    payload,
    status: enumToJson(W.resultStatus, r.status, 'result status'),
    created_at: iso(r.createdAt, 'result created_at'),
    updated_at: iso(r.updatedAt, 'result updated_at'),
  };
}

export function reportToJson(report: marketV1.VerificationReport | undefined): VerificationReportJson {
  const r = required(report, 'verification report');
  return {
    report_id: r.reportId,
    contract_id: r.contractId,
    result_id: r.resultId,
    verifier_id: r.verifierId,
    verdict: enumToJson(W.verdict, r.verdict, 'verdict'),
    score: r.score,
    // Exactly as signed: a check sent without `detail` has no `detail` key (a null would change the
    // canonical JSON and the signature could not be re-verified from what this returns).
    checks: r.checks.map((c) => (c.detail === undefined ? { name: c.name, ok: c.ok } : { name: c.name, ok: c.ok, detail: c.detail })),
    signature: r.signature,
    created_at: iso(r.createdAt, 'report created_at'),
  };
}

export function metricsToJson(res: marketV1.GetVerificationMetricsResponse): VerificationMetricsJson {
  return {
    window: enumToJson(W.verificationWindow, res.window, 'verification window'),
    reports: int(res.reports, 'reports'),
    passed: int(res.passed, 'passed'),
    failed: int(res.failed, 'failed'),
    pass_rate: orNull(res.passRate),
    median_latency_ms: res.medianLatencyMs === undefined ? null : int(res.medianLatencyMs, 'median_latency_ms'),
  };
}

export function verifierToJson(verifier: marketV1.Verifier | undefined): VerifierJson {
  const v = required(verifier, 'verifier');
  return {
    verifier_id: v.verifierId,
    name: v.name,
    description: v.description,
    tags: [...v.tags],
    fee: moneyOrNull(v.fee),
    created_at: iso(v.createdAt, 'verifier created_at'),
    updated_at: iso(v.updatedAt, 'verifier updated_at'),
  };
}

export function verifierListingToJson(listing: marketV1.VerifierListing | undefined): VerifierListingJson {
  const l = required(listing, 'verifier listing');
  return {
    verifier_listing_id: l.verifierListingId,
    verifier_id: l.verifierId,
    title: l.title,
    tags: [...l.tags],
    price: money(l.price, 'verifier listing price'),
    turnaround: l.turnaround,
    created_at: iso(l.createdAt, 'verifier listing created_at'),
    updated_at: iso(l.updatedAt, 'verifier listing updated_at'),
  };
}

export function disputeToJson(dispute: marketV1.Dispute | undefined): DisputeJson {
  const d = required(dispute, 'dispute');
  return {
    dispute_id: d.disputeId,
    contract_id: d.contractId,
    opened_by: d.openedBy,
    reason: d.reason,
    evidence_refs: [...d.evidenceRefs],
    status: enumToJson(W.disputeStatus, d.status, 'dispute status'),
    outcome: d.outcome === undefined ? null : enumToJson(W.disputeOutcome, d.outcome, 'dispute outcome'),
    seller_share_bps: orNull(d.sellerShareBps),
    rationale: orNull(d.rationale),
    resolved_by: orNull(d.resolvedBy),
    resolved_at: isoOrNull(d.resolvedAt),
    receipt_id: orNull(d.receiptId),
    created_at: iso(d.createdAt, 'dispute created_at'),
    updated_at: iso(d.updatedAt, 'dispute updated_at'),
  };
}
