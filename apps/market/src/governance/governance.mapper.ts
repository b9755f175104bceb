// ResaleReview proto ⇄ domain; the encoder is shared with the outbox events.
export { reviewStatusFromProto, toProtoReview } from '../events/governance.encode';
