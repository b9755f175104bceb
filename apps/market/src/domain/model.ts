// The market's entities as the domain sees them: money in BIGINT micro-units, times as Dates,
// enums as lowercase strings (the JSON/HTTP form); src/grpc maps them to and from the proto.

export type ContractStatus =
  | 'open'
  | 'awarded'
  | 'delivered'
  | 'accepted'
  | 'settled'
  | 'disputed'
  | 'refunded'
  | 'split'
  | 'cancelled'
  | 'expired'
  | 'corrected';
export type VerificationMode = 'verifier' | 'buyer' | 'auto';
export type EscrowStatus = 'none' | 'held' | 'settled' | 'released';
export type OfferStatus = 'submitted' | 'awarded' | 'rejected' | 'withdrawn';
export type ResultStatus = 'submitted' | 'accepted' | 'rejected';
export type DisputeStatus = 'open' | 'resolved';
export type DisputeOutcome = 'seller' | 'buyer' | 'split';
export type Verdict = 'pass' | 'fail';

export interface Contract {
  contractId: string;
  buyerId: string;
  title: string;
  description: string;
  tags: string[];
  budget: bigint;
  currency: string;
  deadline: Date;
  acceptanceCriteria: string;
  verificationMode: VerificationMode;
  verifierId: string | null;
  listingId: string | null;
  status: ContractStatus;
  sellerId: string | null;
  awardedOfferId: string | null;
  price: bigint | null;
  holdId: string | null;
  escrowStatus: EscrowStatus;
  receiptId: string | null;
  disputedFrom: ContractStatus | null;
  cancelReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  awardedAt: Date | null;
  settledAt: Date | null;
  /** The buyer asked for privacy (DESIGN §4 Identity): non-parties see buyerAlias, not buyerId. */
  buyerPrivate: boolean;
  /** "anon:<12 base32>", null until identity minted it. */
  buyerAlias: string | null;
  /** Bumped by each operator alias update (identity mints one alias per generation). */
  buyerAliasGeneration: number;
  templateId: string | null;
  workProductTemplateId: string | null;
  fixtureId: string | null;
  /** Resale (subcontracting): the contract whose awarded seller posted this one. */
  resaleOf: string | null;
  /** The operator review of a resale, when read with it (src/governance attaches it). */
  resaleReview?: ResaleReview | null;
  /** The buyer was a sandbox agent or the exchange runs in sandbox. */
  sandbox: boolean;
  /** Erroneous clear (SETTLED → CORRECTED). */
  correctedAt: Date | null;
  correctionReceiptId: string | null;
  correctionReason: string | null;
  /** Caller-defined public labels (≤ 16; workflows: run, stage, shard, attempt), as given at creation. */
  labels: Record<string, string>;
  /** What the work is made from (e.g. the previous stage's result refs), as given at creation. */
  inputRefs: string[];
}

export interface Listing {
  listingId: string;
  sellerId: string;
  title: string;
  description: string;
  tags: string[];
  price: bigint;
  currency: string;
  turnaround: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Offer {
  offerId: string;
  contractId: string;
  sellerId: string;
  price: bigint;
  currency: string;
  eta: Date;
  terms: string;
  status: OfferStatus;
  createdAt: Date;
  updatedAt: Date;
}

export interface Result {
  resultId: string;
  contractId: string;
  sellerId: string;
  summary: string;
  artifactRefs: string[];
  payloadJson: string | null;
  status: ResultStatus;
  createdAt: Date;
  updatedAt: Date;
}

export interface VerificationCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface VerificationReport {
  reportId: string;
  contractId: string;
  resultId: string;
  verifierId: string;
  verdict: Verdict;
  score: number;
  checks: VerificationCheck[];
  signature: string;
  resultCreatedAt: Date;
  createdAt: Date;
}

export interface Verifier {
  verifierId: string;
  name: string;
  description: string;
  tags: string[];
  fee: { amount: bigint; currency: string } | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface VerifierListing {
  verifierListingId: string;
  verifierId: string;
  title: string;
  tags: string[];
  price: bigint;
  currency: string;
  turnaround: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface Dispute {
  disputeId: string;
  contractId: string;
  openedBy: string;
  reason: string;
  evidenceRefs: string[];
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  sellerShareBps: number | null;
  rationale: string | null;
  resolvedBy: string | null;
  resolvedAt: Date | null;
  receiptId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type SagaKind = 'award' | 'settle' | 'release' | 'resolve' | 'correct';
export type SagaStatus = 'pending' | 'done' | 'failed' | 'superseded';

export interface SagaStep {
  stepId: string;
  contractId: string;
  kind: SagaKind;
  status: SagaStatus;
  params: Record<string, unknown>;
  walletKey: string;
  attempts: number;
  lastError: string | null;
  /**
   * The last failed run got a definite refusal from wallet-ledger (an x-error-code), so that call
   * took no effect. False when the step never failed or its last failure was indefinite (no
   * answer: the wallet may have executed the call).
   */
  lastFailureDefinite: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A resale's lineage review (rules in src/governance/resale.ts). */
export type ResaleReviewStatus = 'pending' | 'approved' | 'rejected';

export interface ResaleReview {
  /** "rld_" + UUIDv7. */
  decisionRef: string;
  contractId: string;
  resaleOf: string;
  rootContractId: string;
  /** How many resales deep the contract is (1 = resale of an original). */
  depth: number;
  /** Every contract of the chain, root first, ending with resaleOf. */
  lineage: string[];
  status: ResaleReviewStatus;
  decidedBy: string | null;
  reason: string | null;
  decidedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
