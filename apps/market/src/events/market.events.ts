import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { marketV1Events } from '@exchange/proto';
import type pg from 'pg';
import type { Caller } from '../domain/caller';
import type { Contract, Dispute, Listing, Offer, Result, VerificationReport, Verifier, VerifierListing } from '../domain/model';
import { contractEvent, disputeEvent, verificationEvent, type BuyerPrivacy } from './public-part';
import {
  toProtoListing,
  toProtoOffer,
  toProtoResult,
  toProtoVerifier,
  toProtoVerifierListing,
} from './market.encode';

// Outbox writers: call them inside the transaction of the change they report. Payloads are the
// JSON form of events.proto's messages; subjects exchange.market.<entity>.<verb>.

export const MARKET_EVENT_SOURCE = 'market';

export type ContractVerb =
  | 'created'
  | 'awarded'
  | 'delivered'
  | 'accepted'
  | 'settled'
  | 'reopened'
  | 'disputed'
  | 'refunded'
  | 'split'
  | 'cancelled'
  | 'expired'
  | 'corrected';

/** Where a caller-less change (sweeper, recovery) comes from. */
export const SYSTEM_CALLER: Caller = { actor: 'system:market', agentId: null, traceId: null };

async function emit(client: pg.ClientBase, type: string, subjectId: string, data: unknown, caller: Caller): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({ type: `exchange.market.${type}`, source: MARKET_EVENT_SOURCE, subjectId, actor: caller.actor, traceId: caller.traceId, data }),
  );
}

export const events = {
  contract: (client: pg.ClientBase, verb: ContractVerb, c: Contract, caller: Caller) =>
    emit(client, `contract.${verb}`, c.contractId, contractEvent(c), caller),
  listing: (client: pg.ClientBase, l: Listing, caller: Caller) =>
    emit(client, 'listing.created', l.listingId, marketV1Events.ListingCreated.toJSON({ listing: toProtoListing(l) }), caller),
  offer: (client: pg.ClientBase, verb: 'submitted' | 'awarded' | 'rejected' | 'withdrawn', o: Offer, caller: Caller) =>
    emit(client, `offer.${verb}`, o.offerId, marketV1Events.OfferChanged.toJSON({ offer: toProtoOffer(o) }), caller),
  result: (client: pg.ClientBase, verb: 'submitted' | 'accepted' | 'rejected', r: Result, caller: Caller) =>
    emit(client, `result.${verb}`, r.resultId, marketV1Events.ResultChanged.toJSON({ result: toProtoResult(r) }), caller),
  verification: (client: pg.ClientBase, r: VerificationReport, contract: BuyerPrivacy, caller: Caller) =>
    emit(client, 'verification.submitted', r.reportId, verificationEvent(r, contract), caller),
  verifier: (client: pg.ClientBase, v: Verifier, caller: Caller) =>
    emit(client, 'verifier.registered', v.verifierId, marketV1Events.VerifierRegistered.toJSON({ verifier: toProtoVerifier(v) }), caller),
  verifierListing: (client: pg.ClientBase, v: VerifierListing, caller: Caller) =>
    emit(
      client,
      'verifier_listing.created',
      v.verifierListingId,
      marketV1Events.VerifierListingCreated.toJSON({ verifierListing: toProtoVerifierListing(v) }),
      caller,
    ),
  /** `contract`: the dispute's contract, whose buyer's privacy decides what the public part shows. */
  dispute: (client: pg.ClientBase, verb: 'opened' | 'resolved', d: Dispute, contract: BuyerPrivacy, caller: Caller) =>
    emit(client, `dispute.${verb}`, d.disputeId, disputeEvent(d, contract), caller),
};
