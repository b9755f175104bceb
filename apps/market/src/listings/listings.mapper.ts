// proto ⇄ domain for the listings handlers: the encoders are shared with the outbox events (events/market.encode).
export { toProtoListing, toProtoVerifier, toProtoVerifierListing } from '../events/market.encode';
