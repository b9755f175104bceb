// Resource shapes of the market areas (Contracts, Listings, Offers, Results, Disputes,
// Verification) exactly as the gateway answers them: snake_case, absent optionals null, enums
// lowercase, money `{ amount, currency }` with decimal-string amounts.

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
export type VerificationWindow = 'all' | '1h' | '1d' | '7d';

export interface Money {
  /** Decimal string, at most 6 fraction digits ("12.5"). */
  amount: string;
  currency: string;
}

export type ResaleReviewStatus = 'pending' | 'approved' | 'rejected';

/** The operator review of a resale contract's lineage (awards wait while pending). */
export interface ResaleReview {
  decision_ref: string;
  contract_id: string;
  resale_of: string;
  root_contract_id: string;
  /** 1 = resale of an original contract. */
  depth: number;
  /** Every contract of the chain, root first, ending with resale_of. */
  lineage: string[];
  status: ResaleReviewStatus;
  decided_by: string | null;
  reason: string | null;
  decided_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface Contract {
  contract_id: string;
  /** null when the buyer is private and you are neither a party nor the operator (see buyer_alias). */
  buyer_id: string | null;
  buyer_private: boolean;
  /** `anon:…` party alias of a private buyer. */
  buyer_alias: string | null;
  title: string;
  description: string;
  tags: string[];
  budget: Money;
  deadline: string;
  acceptance_criteria: string;
  verification_mode: VerificationMode;
  verifier_id: string | null;
  listing_id: string | null;
  status: ContractStatus;
  seller_id: string | null;
  awarded_offer_id: string | null;
  price: Money | null;
  hold_id: string | null;
  escrow_status: EscrowStatus;
  /** The latest settlement or refund receipt: `client.contracts.receipt(id)`. */
  receipt_id: string | null;
  disputed_from: ContractStatus | null;
  cancel_reason: string | null;
  created_at: string;
  updated_at: string;
  awarded_at: string | null;
  settled_at: string | null;
  /** The contract template it inherited defaults from. */
  template_id: string | null;
  work_product_template_id: string | null;
  fixture_id: string | null;
  /** Resale: the parent contract, and the operator review of the lineage. */
  resale_of: string | null;
  resale_review: ResaleReview | null;
  /** Sandbox activity (left out of the price index by default). */
  sandbox: boolean;
  /** Erroneous clear (status `corrected`): when, the correction receipt and the operator's reason. */
  corrected_at: string | null;
  correction_receipt_id: string | null;
  correction_reason: string | null;
}

export interface Listing {
  listing_id: string;
  seller_id: string;
  title: string;
  description: string;
  tags: string[];
  price: Money;
  /** ISO 8601 duration ("PT24H"). */
  turnaround: string | null;
  created_at: string;
  updated_at: string;
}

export interface Offer {
  offer_id: string;
  contract_id: string;
  seller_id: string;
  price: Money;
  eta: string;
  terms: string;
  status: OfferStatus;
  created_at: string;
  updated_at: string;
}

export interface Result {
  result_id: string;
  contract_id: string;
  seller_id: string;
  summary: string;
  artifact_refs: string[];
  /** The JSON value submitted, or null. */
  payload: unknown;
  status: ResultStatus;
  created_at: string;
  updated_at: string;
}

export interface VerificationCheck {
  name: string;
  ok: boolean;
  /** Optional; when absent it is absent from the signed payload too (the answer shows null). */
  detail?: string;
}

export interface VerificationReport {
  report_id: string;
  contract_id: string;
  result_id: string;
  verifier_id: string;
  verdict: Verdict;
  score: number;
  /** Exactly as signed: `detail` is absent when the check was sent without it. */
  checks: Array<{ name: string; ok: boolean; detail?: string }>;
  signature: string;
  created_at: string;
}

export interface VerificationMetrics {
  window: VerificationWindow;
  reports: number;
  passed: number;
  failed: number;
  /** null without reports. */
  pass_rate: number | null;
  /** null without reports. */
  median_latency_ms: number | null;
}

export interface Verifier {
  verifier_id: string;
  name: string;
  description: string;
  tags: string[];
  fee: Money | null;
  created_at: string;
  updated_at: string;
}

export interface VerifierListing {
  verifier_listing_id: string;
  verifier_id: string;
  title: string;
  tags: string[];
  price: Money;
  turnaround: string;
  created_at: string;
  updated_at: string;
}

export interface Dispute {
  dispute_id: string;
  contract_id: string;
  opened_by: string;
  reason: string;
  evidence_refs: string[];
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  seller_share_bps: number | null;
  rationale: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  receipt_id: string | null;
  created_at: string;
  updated_at: string;
}
