import type pg from 'pg';
import { classify, contractsToLookUp, firstOfEachId, isStateful, publicViews, resolveFilings, viasToResolve, type BuyerFact } from '../domain/batch-plan';
import type { Filing } from '../domain/classify';
import { hasLoneSurrogate, storedSubjectId, type StoreEvent } from '../domain/event';
import type { JsonObject } from '../domain/event-json';
import { EVENT_COLUMN_TYPES, EVENT_COLUMNS, eventRow } from './event-row';
import { foldFacts } from './facts.repo';

// Recording a batch set-based, inside the caller's transaction: at most one look-up of the
// contracts posts and deliveries inherit, one of the private buyers public events must hide, and
// ONE insert of every event (batch order = `seq` order), instead of up to three round trips per
// event; then the facts, event by event as before. The look-ups are replayed in memory through
// the batch (src/domain/batch-plan.ts) so each event sees the ones before it, assuming every event
// is new. When none is new (a redelivery), nothing was written and nothing is folded, as one by
// one. When some are not new and any of those is stateful (batch-plan isStateful: filed under a
// contract, naming an earlier object or folding facts), whether or not a later event of the batch
// depends on it, NotExactInBatch rolls back and the caller records the batch one by one. So does
// an id or subject that is not well-formed (a lone UTF-16 surrogate: stored as U+FFFD, so the
// in-memory comparisons would not match the store), before anything is written.

type Queryable = Pick<pg.PoolClient, 'query'>;

/** The set-based path cannot reproduce the one-by-one result for this batch. */
export class NotExactInBatch extends Error {
  constructor(eventId: string, why = 'was already recorded') {
    super(`event ${eventId} ${why}: the batch is recorded one by one`);
  }
}

/**
 * For each subject ($1), the contract of the first event with that subject that has a contract
 * (none: no row): the one-by-one look-up (event-store.repo.ts RESOLVE_VIA) run per subject, so
 * each stops at its first row of (subject_id, seq). A change to either query is made in both.
 * Exported for the plan spec (EXPLAIN).
 */
export const STORED_VIAS = `SELECT s.subject_id, first.contract_id FROM unnest($1::text[]) AS s(subject_id)
  CROSS JOIN LATERAL (SELECT contract_id FROM events
    WHERE subject_id = s.subject_id AND contract_id IS NOT NULL ORDER BY seq LIMIT 1) AS first`;

async function storedVias(client: Queryable, subjects: string[]): Promise<Map<string, string>> {
  if (subjects.length === 0) return new Map();
  const { rows } = await client.query<{ subject_id: string; contract_id: string }>(STORED_VIAS, [subjects]);
  return new Map(rows.map((r) => [r.subject_id, r.contract_id]));
}

async function storedBuyers(client: Queryable, contractIds: string[]): Promise<Map<string, BuyerFact>> {
  if (contractIds.length === 0) return new Map();
  const { rows } = await client.query<{ contract_id: string; buyer_id: string; buyer_private: boolean; updated_at: Date }>(
    'SELECT contract_id, buyer_id, buyer_private, updated_at FROM contract_facts WHERE contract_id = ANY($1::text[])',
    [contractIds],
  );
  return new Map(rows.map((r) => [r.contract_id, { buyerId: r.buyer_id, buyerPrivate: r.buyer_private, updatedAt: r.updated_at }]));
}

const COLUMNS = EVENT_COLUMNS.join(', ');
// ORDER BY the ordinality: `seq` is drawn after the sort, so it follows the batch order.
const INSERT_BATCH = `INSERT INTO events (${COLUMNS})
  SELECT ${COLUMNS}
  FROM unnest(${EVENT_COLUMN_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}) WITH ORDINALITY AS b(${COLUMNS}, n)
  ORDER BY n
  ON CONFLICT (event_id) DO NOTHING
  RETURNING event_id`;

/** One insert of the whole batch; the ids it recorded (the others were recorded before). */
async function insertEvents(client: Queryable, events: readonly StoreEvent[], filings: readonly Filing[], views: ReadonlyArray<JsonObject | null>): Promise<Set<string>> {
  // The rows as the one-by-one insert writes them (eventRow), one parameter array per column.
  const rows = events.map((e, i) => eventRow(e, filings[i], views[i]));
  const { rows: inserted } = await client.query<{ event_id: string }>(INSERT_BATCH, EVENT_COLUMNS.map((c) => rows.map((r) => r[c])));
  return new Set(inserted.map((r) => r.event_id));
}

/**
 * Records `events` in order inside the caller's transaction, as recording them one by one would;
 * how many were new. Throws NotExactInBatch (after writing: the caller must roll back) when some
 * but not all of the events were already recorded and any of those is stateful, or (before
 * writing) when an id or subject is not well-formed.
 */
export async function recordBatch(client: Queryable, events: readonly StoreEvent[]): Promise<number> {
  const malformed = events.find((e) => hasLoneSurrogate(e.id) || hasLoneSurrogate(storedSubjectId(e)));
  if (malformed !== undefined) throw new NotExactInBatch(malformed.id, 'has an id or subject that is not well-formed');
  const batch = firstOfEachId(events).map(classify);
  const filings = resolveFilings(batch, await storedVias(client, viasToResolve(batch)));
  const ordered = batch.map((c) => c.event);
  const views = publicViews(batch, filings, await storedBuyers(client, contractsToLookUp(ordered, filings)));
  const recorded = await insertEvents(client, ordered, filings, views);
  // Nothing new (a redelivery): one by one every insert would conflict and nothing be folded.
  if (recorded.size === 0) return 0;
  if (recorded.size < batch.length) {
    const stale = batch.find((c) => !recorded.has(c.event.id) && isStateful(c));
    if (stale !== undefined) throw new NotExactInBatch(stale.event.id);
  }
  for (let i = 0; i < ordered.length; i++) {
    // foldFacts issues no query for an event that folds nothing.
    if (recorded.has(ordered[i].id)) await foldFacts(client, batch[i].facts, filings[i]);
  }
  return recorded.size;
}
