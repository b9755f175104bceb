// proto ⇄ domain for the offers handlers: the encoders are shared with the outbox events (events/market.encode).
export { offerStatus, toProtoContract, toProtoOffer } from '../events/market.encode';
export { optionalEnum } from '../grpc/handler-kit';
