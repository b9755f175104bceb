// proto ⇄ domain for the results handlers: the encoders are shared with the outbox events (events/market.encode).
export { resultStatus, toProtoContract, toProtoResult } from '../events/market.encode';
export { optionalEnum } from '../grpc/handler-kit';
