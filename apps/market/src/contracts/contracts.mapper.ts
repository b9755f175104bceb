// proto ⇄ domain for the contracts handlers: the encoders are shared with the outbox events (events/market.encode).
export { contractStatus, toProtoContract, verificationMode } from '../events/market.encode';
export { optionalEnum, requiredEnum } from '../grpc/handler-kit';
