import { errors } from '@exchange/platform';
import { GENESIS_HASH } from './evidence-chain';

// Who may read a session's evidence and casefile: its buyer, or the operator. Nobody else learns
// more than that the session exists (403 after the 404).

/** Who calls (the gateway authenticated it): an agent, or the operator (agentId empty). */
export interface EvidenceActor {
  agentId: string;
  operator: boolean;
}

/** What the evidence area needs of a checkout session row. */
export interface SessionHead {
  commerceSessionId: string;
  buyerAgentId: string;
  mandateId: string;
  merchantDomain: string;
  /** Items in the chain (0 = none yet). */
  evidenceSeq: number;
  /** The stored head; meaningless while evidenceSeq is 0 (see chainHead). */
  evidenceHead: string;
}

// Session ids are `cs_<uuidv7>`; anything else cannot name a session (and never reaches SQL,
// where a NUL byte would be a server error instead of a 404).
const SESSION_ID = /^cs_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The requested session id, or 400 validation_failed when missing; a malformed id is a 404. */
export function sessionIdOf(id: string | undefined): { id: string; wellFormed: boolean } {
  if (id === undefined || id === '') throw errors.invalidArgument('validation_failed', 'commerce_session_id is required', { field: 'commerce_session_id' });
  return { id, wellFormed: SESSION_ID.test(id) };
}

export function sessionNotFound(id: string): Error {
  return errors.notFound('checkout_session', id.length > 80 ? `${id.slice(0, 80)}…` : id);
}

/** 403 not_session_buyer unless the actor is the operator or the session's buyer. */
export function assertCanRead(actor: EvidenceActor | undefined, session: SessionHead): void {
  if (actor?.operator) return;
  if (actor && actor.agentId !== '' && actor.agentId === session.buyerAgentId) return;
  throw errors.permissionDenied('not_session_buyer', 'only the session buyer or the operator may read its evidence');
}

/** The head the chain must reach: 64 zeros while there is no item (as appendEvidence starts). */
export function chainHead(session: SessionHead): string {
  return session.evidenceSeq === 0 ? GENESIS_HASH : session.evidenceHead;
}
