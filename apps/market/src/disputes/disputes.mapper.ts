// proto ⇄ domain for the disputes handlers: the encoders are shared with the outbox events (events/market.encode).
export { disputeOutcome, disputeStatus, toProtoContract, toProtoDispute } from '../events/market.encode';
export { optionalEnum, requiredEnum } from '../grpc/handler-kit';
