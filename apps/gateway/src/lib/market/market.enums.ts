import { marketV1, marketV1Wire } from '@exchange/proto';
import type { ResaleReviewStatusName } from '../../areas/contracts/contracts.schemas';
import type { ContractStatusName, DisputeOutcomeName, OfferStatusName, ResultStatusName, DisputeStatusName, VerdictName, VerificationModeName, VerificationWindowName } from './market.schemas';

// The request side of the market enums: filters and inputs in their REST names → proto values,
// read through the tables generated from market.proto (`open` → `CONTRACT_STATUS_OPEN`); the
// answers go the other way through the same tables in market.mapper.ts. The schemas admit only
// the tables' names, so `toProto` never meets another.

const M = marketV1;
const W = marketV1Wire;

/** An absent mode is UNSPECIFIED: the market applies its default (`buyer`). */
export const verificationModeFromJson = (mode: VerificationModeName | undefined): marketV1.VerificationMode =>
  mode === undefined ? M.VerificationMode.VERIFICATION_MODE_UNSPECIFIED : W.verificationMode.toProto(mode);
/** Filters: absent → field absent (no filter), as the proto's `optional` says. */
export const contractStatusFilter = (status: ContractStatusName | undefined) => W.contractStatus.fromWire(status);
export const offerStatusFilter = (status: OfferStatusName | undefined) => W.offerStatus.fromWire(status);
export const resultStatusFilter = (status: ResultStatusName | undefined) => W.resultStatus.fromWire(status);
export const disputeStatusFilter = (status: DisputeStatusName | undefined) => W.disputeStatus.fromWire(status);
export const resaleReviewStatusFilter = (status: ResaleReviewStatusName | undefined) => W.resaleReviewStatus.fromWire(status);
export const disputeOutcomeFromJson = (outcome: DisputeOutcomeName): marketV1.DisputeOutcome => W.disputeOutcome.toProto(outcome);
export const verdictFromJson = (verdict: VerdictName): marketV1.Verdict => W.verdict.toProto(verdict);
/** Default window: all. */
export const windowFromJson = (window: VerificationWindowName | undefined): marketV1.VerificationWindow => W.verificationWindow.toProto(window ?? 'all');
