import { marketV1Events } from '@exchange/proto';
import type { Post, Thread } from '../coordination/thread';
import type { Contract, Dispute, VerificationReport } from '../domain/model';
import { toProtoPost, toProtoThread } from './coordination.encode';
import { toProtoContract, toProtoDispute, toProtoReport } from './market.encode';

// The `data` of the market events that can name a private buyer (events.proto, "Privacy"): the
// object is the public part, as a stranger reads it, so the buyer's id is blanked there and
// travels only in `restricted` (operator views). Every emitter goes through these functions, so
// no call site can put a private buyer's id in the public part, and no consumer can leak it.

/** What decides the redaction: the contract's buyer and whether it asked for privacy. */
export type BuyerPrivacy = Pick<Contract, 'buyerId' | 'buyerPrivate'>;

type Restricted = { restricted?: marketV1Events.RestrictedParties };

/** `restricted` of an event about this contract: set only when its buyer is private. */
function restrictedOf(c: BuyerPrivacy | null): Restricted {
  return c !== null && c.buyerPrivate ? { restricted: { buyerId: c.buyerId } } : {};
}

/** `party` as the public part shows it: '' when it is the contract's private buyer. */
function publicParty(party: string, c: BuyerPrivacy | null): string {
  return c !== null && c.buyerPrivate && party === c.buyerId ? '' : party;
}

/** exchange.market.contract.*: buyer_id empty for a private buyer (the alias stays). */
export function contractEvent(c: Contract): unknown {
  const contract = toProtoContract({ ...c, buyerId: publicParty(c.buyerId, c) });
  return marketV1Events.ContractChanged.toJSON({ contract, ...restrictedOf(c) });
}

/** exchange.market.dispute.*: opened_by empty when the contract's private buyer opened it. */
export function disputeEvent(d: Dispute, contract: BuyerPrivacy): unknown {
  const dispute = toProtoDispute({ ...d, openedBy: publicParty(d.openedBy, contract) });
  return marketV1Events.DisputeChanged.toJSON({ dispute, ...restrictedOf(contract) });
}

/** exchange.market.thread.created: created_by empty when the thread's contract's private buyer made it. */
export function threadEvent(t: Thread, contract: BuyerPrivacy | null): unknown {
  const thread = toProtoThread({ ...t, createdBy: publicParty(t.createdBy, contract) });
  return marketV1Events.ThreadCreated.toJSON({ thread, ...restrictedOf(contract) });
}

/** exchange.market.post.created: author empty when the thread's contract's private buyer wrote it. */
export function postEvent(p: Post, contract: BuyerPrivacy | null): unknown {
  const post = toProtoPost({ ...p, author: publicParty(p.author, contract) });
  return marketV1Events.PostCreated.toJSON({ post, ...restrictedOf(contract) });
}

/** exchange.market.verification.submitted: verifier_id empty when the contract's private buyer verified (mode buyer). */
export function verificationEvent(r: VerificationReport, contract: BuyerPrivacy): unknown {
  const report = toProtoReport({ ...r, verifierId: publicParty(r.verifierId, contract) });
  return marketV1Events.VerificationSubmitted.toJSON({ report, ...restrictedOf(contract) });
}
