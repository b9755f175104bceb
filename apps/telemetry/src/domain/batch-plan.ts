import { classifyEvent, inheritsContract, type Filing } from './classify';
import { storedSubjectId, type StoreEvent } from './event';
import { factsOf, hiddenBuyers, type EventFacts } from './facts';
import type { JsonObject } from './event-json';
import { isPublicType, publicView } from './public-view';

// What recording a batch in one pass needs to compute in memory, so that each event still sees
// the ones before it (README "Event store and privacy"): the contract a post or delivery inherits
// from an earlier event of the batch, and the private buyer an earlier contract snapshot of the
// batch recorded. The rules replay exactly what the one-by-one path reads from the store.

export interface Classified {
  event: StoreEvent;
  filing: Filing;
  /** factsOf(event), read once: the batch folds them and replays the contract snapshot. */
  facts: EventFacts;
}

/** An event with its filing (unresolved) and its facts. */
export function classify(event: StoreEvent): Classified {
  return { event, filing: classifyEvent(event), facts: factsOf(event) };
}

/** The first occurrence of each event id, in batch order: a repeat inside a batch changes nothing. */
export function firstOfEachId<T extends { id: string }>(events: readonly T[]): T[] {
  const seen = new Set<string>();
  return events.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
}

/** Whether any fact is present (contract, dispute, checkout, purchase, categories): the event folds facts. */
function foldsFacts(facts: EventFacts): boolean {
  return facts.contract !== null || facts.disputed !== null || facts.checkout !== null || facts.purchase !== null || facts.categories.length > 0;
}

/**
 * Whether what the batch stores for later events depends on this one being new: it files under a
 * contract (a later post may inherit it), names an earlier object, or folds facts. A repeat of
 * such an event makes the in-memory replay wrong; a repeat of any other event changes nothing.
 */
export function isStateful({ filing, facts }: Classified): boolean {
  return filing.contractId !== null || filing.via !== null || foldsFacts(facts);
}

/** Subjects whose contract the store must answer (events naming an earlier object, none of their own). */
export function viasToResolve(batch: readonly Classified[]): string[] {
  return [...new Set(batch.filter(({ filing }) => inheritsContract(filing)).map(({ filing }) => filing.via as string))];
}

/**
 * Each event's filing with `via` resolved as the store would one by one: the contract of the
 * first event with that subject — in the store (`stored`, all earlier than the batch), else the
 * first earlier event of the batch filed under a contract.
 */
export function resolveFilings(batch: readonly Classified[], stored: ReadonlyMap<string, string>): Filing[] {
  const firstContractOf = new Map<string, string>();
  return batch.map(({ event, filing }) => {
    const resolved = inheritsContract(filing)
      ? { ...filing, contractId: stored.get(filing.via as string) ?? firstContractOf.get(filing.via as string) ?? null }
      : filing;
    const subject = storedSubjectId(event);
    if (resolved.contractId !== null && !firstContractOf.has(subject)) firstContractOf.set(subject, resolved.contractId);
    return resolved;
  });
}

/** Contracts whose private buyer a public event of the batch must hide. */
export function contractsToLookUp(events: readonly StoreEvent[], filings: readonly Filing[]): string[] {
  const ids = new Set<string>();
  events.forEach((e, i) => {
    const id = filings[i].contractId;
    if (id !== null && isPublicType(e.type)) ids.add(id);
  });
  return [...ids];
}

/** The part of a `contract_facts` row that decides who is a private buyer. */
export interface BuyerFact {
  buyerId: string;
  buyerPrivate: boolean;
  updatedAt: Date;
}

/**
 * The public projection of each event, with the private buyer as recorded before it: `stored`
 * (the store's rows of the looked-up contracts) folded with the batch's earlier contract
 * snapshots as the upsert does (newer or equal `updated_at` wins; an empty buyer keeps the old).
 */
export function publicViews(batch: readonly Classified[], filings: readonly Filing[], stored: ReadonlyMap<string, BuyerFact>): Array<JsonObject | null> {
  const facts = new Map(stored);
  return batch.map(({ event, facts: { contract: snapshot } }, i) => {
    const contractId = filings[i].contractId;
    let view: JsonObject | null = null;
    if (isPublicType(event.type)) {
      const fact = contractId === null ? undefined : facts.get(contractId);
      view = publicView(event, { privateParties: hiddenBuyers(fact) });
    }
    // Every contract read above was looked up, so `stored` holds its row when the store has one.
    // The fold below replays the buyer part of ingest/facts.repo.ts upsertContract (its WHERE
    // and its buyer_id CASE): a change to either rule is made in both.
    if (snapshot !== null) {
      const before = facts.get(snapshot.contractId);
      if (before === undefined) {
        facts.set(snapshot.contractId, { buyerId: snapshot.buyerId, buyerPrivate: snapshot.buyerPrivate, updatedAt: snapshot.updatedAt });
      } else if (before.updatedAt.getTime() <= snapshot.updatedAt.getTime()) {
        facts.set(snapshot.contractId, { buyerId: snapshot.buyerId !== '' ? snapshot.buyerId : before.buyerId, buyerPrivate: snapshot.buyerPrivate, updatedAt: snapshot.updatedAt });
      }
    }
    return view;
  });
}
