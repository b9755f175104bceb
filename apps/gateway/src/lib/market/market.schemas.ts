import { marketV1Wire } from '@exchange/proto';
import { Amount, Currency } from '../../areas/wallets/wallets.schemas';
import { ContractId, DisputeId, Key, ListingId, OfferId, PageFields, ResultId } from './market-kit';
import { AgentId, StringEnum } from '../../schemas/common';
import { Type } from 'typebox';

// REST shapes of the market areas (spec §4 Contracts, Listings, Offers, Results, Disputes,
// Verification; DESIGN §4 Market). The market service owns the domain checks and their codes
// (`invalid_deadline`, `invalid_eta`, `invalid_turnaround`, `invalid_score`,
// `invalid_seller_share`, `currency_mismatch`, …), so those fields are typed here but not
// range-checked: a schema failure would hide the specific code behind `validation_failed`.
// Shapes, unknown fields, enums and plain length limits are refused here.

// The enums' REST names, in proto order, from the tables generated from market.proto.
export const CONTRACT_STATUSES = marketV1Wire.contractStatus.names;
export const VERIFICATION_MODES = marketV1Wire.verificationMode.names;
export const ESCROW_STATUSES = marketV1Wire.escrowStatus.names;
export const OFFER_STATUSES = marketV1Wire.offerStatus.names;
export const RESULT_STATUSES = marketV1Wire.resultStatus.names;
export const DISPUTE_STATUSES = marketV1Wire.disputeStatus.names;
export const DISPUTE_OUTCOMES = marketV1Wire.disputeOutcome.names;
export const VERDICTS = marketV1Wire.verdict.names;
export const VERIFICATION_WINDOWS = marketV1Wire.verificationWindow.names;

export type ContractStatusName = (typeof CONTRACT_STATUSES)[number];
export type VerificationModeName = (typeof VERIFICATION_MODES)[number];
export type EscrowStatusName = (typeof ESCROW_STATUSES)[number];
export type OfferStatusName = (typeof OFFER_STATUSES)[number];
export type ResultStatusName = (typeof RESULT_STATUSES)[number];
export type DisputeStatusName = (typeof DISPUTE_STATUSES)[number];
export type DisputeOutcomeName = (typeof DISPUTE_OUTCOMES)[number];
export type VerdictName = (typeof VERDICTS)[number];
export type VerificationWindowName = (typeof VERIFICATION_WINDOWS)[number];

// ─── building blocks ────────────────────────────────────────────────────────────────────────

export const Money = Type.Object(
  { amount: Amount, currency: Currency },
  { additionalProperties: false, description: 'An amount and its currency', examples: [{ amount: '100', currency: 'CREDIT' }] },
);

// ─── params and queries ─────────────────────────────────────────────────────────────────────

export const ContractParams = Type.Object({ contract_id: ContractId }, { additionalProperties: false });
export const ListingParams = Type.Object({ listing_id: ListingId }, { additionalProperties: false });
export const OfferParams = Type.Object({ offer_id: OfferId }, { additionalProperties: false });
export const ResultParams = Type.Object({ result_id: ResultId }, { additionalProperties: false });
export const DisputeParams = Type.Object({ dispute_id: DisputeId }, { additionalProperties: false });
export const AwardParams = Type.Object({ contract_id: ContractId, offer_id: OfferId }, { additionalProperties: false });



export const ListContractsQuery = Type.Object(
  { ...PageFields, buyer_id: Type.Optional(AgentId), seller_id: Type.Optional(AgentId), status: Type.Optional(StringEnum(CONTRACT_STATUSES)) },
  { additionalProperties: false },
);
export const ListListingsQuery = Type.Object(
  { ...PageFields, tag: Type.Optional(Type.String({ minLength: 1, maxLength: 64, examples: ['nlp'] })) },
  { additionalProperties: false },
);
export const ListOffersQuery = Type.Object(
  { ...PageFields, seller_id: Type.Optional(AgentId), status: Type.Optional(StringEnum(OFFER_STATUSES)) },
  { additionalProperties: false },
);
export const ListResultsQuery = Type.Object(
  { ...PageFields, seller_id: Type.Optional(AgentId), status: Type.Optional(StringEnum(RESULT_STATUSES)) },
  { additionalProperties: false },
);
export const ListDisputesQuery = Type.Object(
  { ...PageFields, opened_by: Type.Optional(AgentId), status: Type.Optional(StringEnum(DISPUTE_STATUSES)) },
  { additionalProperties: false },
);
export const ListVerifiersQuery = Type.Object(PageFields, { additionalProperties: false });
export const ListVerifierListingsQuery = Type.Object({ ...PageFields, verifier_id: Type.Optional(AgentId) }, { additionalProperties: false });
export const VerificationMetricsQuery = Type.Object(
  { window: Type.Optional(StringEnum(VERIFICATION_WINDOWS, { default: 'all', description: 'Over report creation time (default all)' })) },
  { additionalProperties: false },
);


export const KeyOnlyMarketBody = Type.Object({ idempotency_key: Key }, { additionalProperties: false, examples: [{ idempotency_key: 'award-001' }] });
