import { marketV1 } from '@exchange/proto';
import type { ResaleReviewStatusName } from '../../areas/contracts/contracts.schemas';
import type { ContractStatusName, DisputeOutcomeName, DisputeStatusName, EscrowStatusName, OfferStatusName, ResultStatusName, VerdictName, VerificationModeName, VerificationWindowName } from './market.schemas';
import { invert } from '../mapper-kit';

// The market enums ⇄ their REST names (`CONTRACT_STATUS_OPEN` ⇄ `open`): the tables the mapper
// answers with, and the request side (filters and inputs) read through their inversions.

const M = marketV1;

export const CONTRACT_STATUS: Readonly<Record<number, ContractStatusName>> = {
  [M.ContractStatus.CONTRACT_STATUS_OPEN]: 'open',
  [M.ContractStatus.CONTRACT_STATUS_AWARDED]: 'awarded',
  [M.ContractStatus.CONTRACT_STATUS_DELIVERED]: 'delivered',
  [M.ContractStatus.CONTRACT_STATUS_ACCEPTED]: 'accepted',
  [M.ContractStatus.CONTRACT_STATUS_SETTLED]: 'settled',
  [M.ContractStatus.CONTRACT_STATUS_DISPUTED]: 'disputed',
  [M.ContractStatus.CONTRACT_STATUS_REFUNDED]: 'refunded',
  [M.ContractStatus.CONTRACT_STATUS_SPLIT]: 'split',
  [M.ContractStatus.CONTRACT_STATUS_CANCELLED]: 'cancelled',
  [M.ContractStatus.CONTRACT_STATUS_EXPIRED]: 'expired',
  [M.ContractStatus.CONTRACT_STATUS_CORRECTED]: 'corrected',
};
export const VERIFICATION_MODE: Readonly<Record<number, VerificationModeName>> = {
  [M.VerificationMode.VERIFICATION_MODE_VERIFIER]: 'verifier',
  [M.VerificationMode.VERIFICATION_MODE_BUYER]: 'buyer',
  [M.VerificationMode.VERIFICATION_MODE_AUTO]: 'auto',
};
export const ESCROW_STATUS: Readonly<Record<number, EscrowStatusName>> = {
  [M.EscrowStatus.ESCROW_STATUS_NONE]: 'none',
  [M.EscrowStatus.ESCROW_STATUS_HELD]: 'held',
  [M.EscrowStatus.ESCROW_STATUS_SETTLED]: 'settled',
  [M.EscrowStatus.ESCROW_STATUS_RELEASED]: 'released',
};
export const OFFER_STATUS: Readonly<Record<number, OfferStatusName>> = {
  [M.OfferStatus.OFFER_STATUS_SUBMITTED]: 'submitted',
  [M.OfferStatus.OFFER_STATUS_AWARDED]: 'awarded',
  [M.OfferStatus.OFFER_STATUS_REJECTED]: 'rejected',
  [M.OfferStatus.OFFER_STATUS_WITHDRAWN]: 'withdrawn',
};
export const RESULT_STATUS: Readonly<Record<number, ResultStatusName>> = {
  [M.ResultStatus.RESULT_STATUS_SUBMITTED]: 'submitted',
  [M.ResultStatus.RESULT_STATUS_ACCEPTED]: 'accepted',
  [M.ResultStatus.RESULT_STATUS_REJECTED]: 'rejected',
};
export const DISPUTE_STATUS: Readonly<Record<number, DisputeStatusName>> = {
  [M.DisputeStatus.DISPUTE_STATUS_OPEN]: 'open',
  [M.DisputeStatus.DISPUTE_STATUS_RESOLVED]: 'resolved',
};
export const DISPUTE_OUTCOME: Readonly<Record<number, DisputeOutcomeName>> = {
  [M.DisputeOutcome.DISPUTE_OUTCOME_SELLER]: 'seller',
  [M.DisputeOutcome.DISPUTE_OUTCOME_BUYER]: 'buyer',
  [M.DisputeOutcome.DISPUTE_OUTCOME_SPLIT]: 'split',
};
export const VERDICT: Readonly<Record<number, VerdictName>> = {
  [M.Verdict.VERDICT_PASS]: 'pass',
  [M.Verdict.VERDICT_FAIL]: 'fail',
};
export const WINDOW: Readonly<Record<number, VerificationWindowName>> = {
  [M.VerificationWindow.VERIFICATION_WINDOW_ALL]: 'all',
  [M.VerificationWindow.VERIFICATION_WINDOW_1H]: '1h',
  [M.VerificationWindow.VERIFICATION_WINDOW_1D]: '1d',
  [M.VerificationWindow.VERIFICATION_WINDOW_7D]: '7d',
};

export const RESALE_REVIEW_STATUS: Readonly<Record<number, ResaleReviewStatusName>> = {
  [M.ResaleReviewStatus.RESALE_REVIEW_STATUS_PENDING]: 'pending',
  [M.ResaleReviewStatus.RESALE_REVIEW_STATUS_APPROVED]: 'approved',
  [M.ResaleReviewStatus.RESALE_REVIEW_STATUS_REJECTED]: 'rejected',
};
const RESALE_REVIEW_STATUS_FROM_JSON = invert(RESALE_REVIEW_STATUS) as Readonly<Record<ResaleReviewStatusName, marketV1.ResaleReviewStatus>>;
export const resaleReviewStatusFilter = (status: ResaleReviewStatusName | undefined) =>
  status === undefined ? undefined : RESALE_REVIEW_STATUS_FROM_JSON[status];

const CONTRACT_STATUS_FROM_JSON = invert(CONTRACT_STATUS) as Readonly<Record<ContractStatusName, marketV1.ContractStatus>>;
const VERIFICATION_MODE_FROM_JSON = invert(VERIFICATION_MODE) as Readonly<Record<VerificationModeName, marketV1.VerificationMode>>;
const OFFER_STATUS_FROM_JSON = invert(OFFER_STATUS) as Readonly<Record<OfferStatusName, marketV1.OfferStatus>>;
const RESULT_STATUS_FROM_JSON = invert(RESULT_STATUS) as Readonly<Record<ResultStatusName, marketV1.ResultStatus>>;
const DISPUTE_STATUS_FROM_JSON = invert(DISPUTE_STATUS) as Readonly<Record<DisputeStatusName, marketV1.DisputeStatus>>;
const DISPUTE_OUTCOME_FROM_JSON = invert(DISPUTE_OUTCOME) as Readonly<Record<DisputeOutcomeName, marketV1.DisputeOutcome>>;
const VERDICT_FROM_JSON = invert(VERDICT) as Readonly<Record<VerdictName, marketV1.Verdict>>;
const WINDOW_FROM_JSON = invert(WINDOW) as Readonly<Record<VerificationWindowName, marketV1.VerificationWindow>>;

/** An absent mode is UNSPECIFIED: the market applies its default (`buyer`). */
export const verificationModeFromJson = (mode: VerificationModeName | undefined): marketV1.VerificationMode =>
  mode === undefined ? M.VerificationMode.VERIFICATION_MODE_UNSPECIFIED : VERIFICATION_MODE_FROM_JSON[mode];
/** Filters: absent → field absent (no filter), as the proto's `optional` says. */
export const contractStatusFilter = (status: ContractStatusName | undefined) =>
  status === undefined ? undefined : CONTRACT_STATUS_FROM_JSON[status];
export const offerStatusFilter = (status: OfferStatusName | undefined) => (status === undefined ? undefined : OFFER_STATUS_FROM_JSON[status]);
export const resultStatusFilter = (status: ResultStatusName | undefined) => (status === undefined ? undefined : RESULT_STATUS_FROM_JSON[status]);
export const disputeStatusFilter = (status: DisputeStatusName | undefined) =>
  status === undefined ? undefined : DISPUTE_STATUS_FROM_JSON[status];
export const disputeOutcomeFromJson = (outcome: DisputeOutcomeName): marketV1.DisputeOutcome => DISPUTE_OUTCOME_FROM_JSON[outcome];
export const verdictFromJson = (verdict: VerdictName): marketV1.Verdict => VERDICT_FROM_JSON[verdict];
/** Default window: all. */
export const windowFromJson = (window: VerificationWindowName | undefined): marketV1.VerificationWindow => WINDOW_FROM_JSON[window ?? 'all'];
