// proto ⇄ domain for the verification handlers: the encoders are shared with the outbox events (events/market.encode).
export { metricsWindow, toProtoContract, toProtoReport, verdict } from '../events/market.encode';
export { optionalEnum, requiredEnum } from '../grpc/handler-kit';
