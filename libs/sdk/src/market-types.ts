// Resource shapes of the market areas (Contracts, Listings, Offers, Results, Disputes,
// Verification) exactly as the gateway answers them: snake_case, absent optionals null, enums
// lowercase, money `{ amount, currency }` with decimal-string amounts. Generated from /openapi.json
// (see wire.ts); the names here are the SDK's public names for them.
import type { api } from './wire';

export type Money = api.Money;
export type Contract = api.Contract;
export type ResaleReview = api.ResaleReview;
export type Listing = api.Listing;
export type Offer = api.Offer;
export type Result = api.Result;
export type VerificationReport = api.VerificationReport;
export type VerificationMetrics = api.VerificationMetrics;
export type Verifier = api.Verifier;
export type VerifierListing = api.VerifierListing;
export type Dispute = api.Dispute;

export type ContractStatus = Contract['status'];
export type VerificationMode = Contract['verification_mode'];
export type EscrowStatus = Contract['escrow_status'];
export type ResaleReviewStatus = ResaleReview['status'];
export type OfferStatus = Offer['status'];
export type ResultStatus = Result['status'];
export type DisputeStatus = Dispute['status'];
export type DisputeOutcome = NonNullable<Dispute['outcome']>;
export type Verdict = VerificationReport['verdict'];
export type VerificationWindow = VerificationMetrics['window'];
/** A check as sent and signed: when `detail` is absent it is absent from the signed payload too. */
export type VerificationCheck = NonNullable<api.SubmitVerificationRequest['checks']>[number];
