// ResaleReview proto ⇄ domain, and the contract a decision answers; the encoders are shared with the outbox events.
export { reviewStatusFromProto, toProtoReview } from '../events/governance.encode';
export { toProtoContract } from '../events/market.encode';
