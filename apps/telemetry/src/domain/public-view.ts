import { boolField, cloneJson, dropField, isObject, objectField, stringField, type Json, type JsonObject } from './event-json';
import { typeParts, type StoreEvent } from './event';
import { hiddenBuyers } from './facts';
import { PRIVATE_BUYER_MARK } from './public-alias';

// The public projection of an event (README "Event store and privacy"): what a stranger may read
// through the API about that object, minus operator notes. Only the types below are public; every
// other type (wallet, commerce, identity, registry, workflows, telemetry, a market type added
// later) is operator-only and has no public view. A private buyer's id never survives: besides the
// fields each type drops, every string naming a private party is blanked, wherever it sits.

const CONTRACT_VERBS = [
  'created', 'awarded', 'delivered', 'accepted', 'settled', 'disputed', 'refunded', 'split',
  'cancelled', 'expired', 'reopened', 'corrected', 'buyer_alias_updated',
] as const;

/** Every public event type; each has a fixture in the redaction test. */
export const PUBLIC_EVENT_TYPES: readonly string[] = [
  ...CONTRACT_VERBS.map((v) => `exchange.market.contract.${v}`),
  'exchange.market.listing.created',
  ...['submitted', 'awarded', 'rejected', 'withdrawn'].map((v) => `exchange.market.offer.${v}`),
  ...['submitted', 'accepted', 'rejected'].map((v) => `exchange.market.result.${v}`),
  'exchange.market.verification.submitted',
  'exchange.market.verifier.registered',
  'exchange.market.verifier_listing.created',
  'exchange.market.dispute.opened',
  'exchange.market.dispute.resolved',
  'exchange.market.thread.created',
  'exchange.market.post.created',
  'exchange.market.fixture.indexed',
  'exchange.market.integrity.state_changed',
  'exchange.market.integrity.kill_switch_set',
  'exchange.market.integrity.erroneous_clear',
];

const PUBLIC = new Set(PUBLIC_EVENT_TYPES);

export function isPublicType(type: string): boolean {
  return PUBLIC.has(type);
}

/** What the projection must know beyond the event: ids of private parties of its contract. */
export interface PrivacyContext {
  privateParties?: readonly string[];
}

// Operator notes and money references of a contract: not part of what a stranger reads.
const CONTRACT_DROPS = ['cancelReason', 'correctionReason', 'correctionReceiptId', 'holdId', 'receiptId'];
const RESALE_REVIEW_DROPS = ['decidedBy', 'reason'];
// Deliverables are the buyer's.
const RESULT_DROPS = ['payloadJson', 'summary'];
// Arguments of the parties and the operator's ruling: the outcome stays, the reasons go.
const DISPUTE_DROPS = ['reason', 'rationale', 'evidenceRefs', 'resolvedBy', 'receiptId'];

function without(o: JsonObject | undefined, keys: string[]): JsonObject | undefined {
  if (o === undefined) return undefined;
  const copy = cloneJson(o);
  for (const k of keys) dropField(copy, k);
  return copy;
}

function contractView(data: unknown): JsonObject {
  const contract = without(objectField(data, 'contract'), CONTRACT_DROPS);
  if (contract === undefined) return {};
  const review = without(objectField(contract, 'resaleReview'), RESALE_REVIEW_DROPS);
  if (review !== undefined) {
    dropField(contract, 'resaleReview');
    contract.resaleReview = review;
  }
  // The market blanks a private buyer's id itself; blank it here too, whatever the producer did.
  if (boolField(contract, 'buyerPrivate')) {
    dropField(contract, 'buyerId');
  }
  return { contract };
}

function integrityView(data: unknown): JsonObject {
  const integrity = objectField(data, 'integrity');
  const audit = objectField(data, 'audit');
  const switches = integrity?.killSwitches ?? integrity?.kill_switches;
  const out: JsonObject = {};
  if (audit) out.audit = pick(audit, ['action', 'subject', 'createdAt']);
  if (integrity) {
    out.integrity = pick(integrity, ['state', 'since']);
    if (Array.isArray(switches)) {
      (out.integrity as JsonObject).killSwitches = switches.filter(isObject).map((s) => pick(s, ['name', 'enabled', 'updatedAt']));
    }
  }
  return out;
}

function pick(o: JsonObject, keys: string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of keys) {
    const v = o[k] ?? o[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
    if (v !== undefined) out[k] = cloneJson(v);
  }
  return out;
}

/** One object of the payload (`key`), copied without `drops`. */
function single(data: unknown, key: string, drops: string[] = []): JsonObject {
  const inner = without(objectField(data, key), drops);
  return inner === undefined ? {} : { [key]: inner };
}

function project(entity: string, data: unknown): JsonObject {
  switch (entity) {
    case 'contract':
      return contractView(data);
    case 'listing':
      return single(data, 'listing');
    case 'offer':
      // ListOffers is open to anyone (apps/market offers.service.ts): price and terms are public.
      return single(data, 'offer');
    case 'result':
      return single(data, 'result', RESULT_DROPS);
    case 'verification':
      return single(data, 'report');
    case 'verifier':
      return single(data, 'verifier');
    case 'verifier_listing':
      return single(data, 'verifierListing');
    case 'dispute':
      return single(data, 'dispute', DISPUTE_DROPS);
    case 'thread':
      return single(data, 'thread');
    case 'post':
      return single(data, 'post');
    case 'fixture':
      return single(data, 'fixture');
    case 'integrity':
      return integrityView(data);
    default:
      return {};
  }
}

/** Ids the projection must not show: the context's, the event's `restricted` buyer, a private contract buyer. */
function privatePartiesOf(data: unknown, ctx: PrivacyContext): string[] {
  const ids = new Set(ctx.privateParties ?? []);
  const restricted = stringField(objectField(data, 'restricted'), 'buyerId');
  if (restricted) ids.add(restricted);
  const contract = objectField(data, 'contract');
  for (const id of hiddenBuyers({ buyerId: stringField(contract, 'buyerId') ?? '', buyerPrivate: boolField(contract, 'buyerPrivate') })) ids.add(id);
  return [...ids].filter((id) => id.length > 0);
}

/** Every private party's id, alone or inside a string, becomes the mark the feed reads as the current alias. */
function scrub(value: Json, ids: string[]): Json {
  if (typeof value === 'string') {
    return ids.reduce((s, id) => (s.includes(id) ? s.split(id).join(PRIVATE_BUYER_MARK) : s), value);
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, ids));
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[scrub(k, ids) as string] = scrub(v, ids);
    return out;
  }
  return value;
}

/**
 * The stranger's view of an event's payload, or null when the type is operator-only. Never the
 * envelope's actor nor the `restricted` part; the envelope ids, type, subject and time are shown
 * beside it by the feeds (PublicEvent).
 */
export function publicView(event: Pick<StoreEvent, 'type' | 'data'>, ctx: PrivacyContext = {}): JsonObject | null {
  if (!isPublicType(event.type)) return null;
  const entity = typeParts(event.type).entity;
  const view = project(entity, event.data);
  const ids = privatePartiesOf(event.data, ctx);
  if (ids.length === 0) return view;
  markBlankedParty(view, entity, event.data);
  return scrub(view, ids) as JsonObject;
}

// The party field the market blanks when the private buyer acted (events.proto, "Privacy").
const PARTY_FIELDS: Record<string, [string, string]> = {
  dispute: ['dispute', 'openedBy'],
  thread: ['thread', 'createdBy'],
  post: ['post', 'author'],
  verification: ['report', 'verifierId'],
};

/** With a `restricted` buyer, a blank party field was that buyer: it shows the alias mark. */
function markBlankedParty(view: JsonObject, entity: string, data: unknown): void {
  const field = PARTY_FIELDS[entity];
  if (field === undefined || !stringField(objectField(data, 'restricted'), 'buyerId')) return;
  const inner = objectField(view, field[0]);
  if (inner !== undefined && !stringField(inner, field[1])) inner[field[1]] = PRIVATE_BUYER_MARK;
}
