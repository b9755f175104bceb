import type pg from 'pg';
import { contractsToLookUp, firstOfEachId, foldsFacts, isStateful, publicViews, resolveFilings, viasToResolve, type BuyerFact, type Classified } from '../domain/batch-plan';
import { classifyEvent, type Filing } from '../domain/classify';
import type { StoreEvent } from '../domain/event';
import type { JsonObject } from '../domain/event-json';
import { foldFacts } from './facts.repo';

// Recording a batch set-based, inside the caller's transaction: at most one look-up of the
// contracts posts and deliveries inherit, one of the private buyers public events must hide, and
// ONE insert of every event (batch order = `seq` order), instead of up to three round trips per
// event; then the facts, event by event as before. The look-ups are replayed in memory through
// the batch (src/domain/batch-plan.ts) so each event sees the ones before it, assuming every event
// is new; when an event that others may depend on turns out to be recorded already,
// NotExactInBatch rolls back and the caller records the batch one by one.

type Queryable = Pick<pg.PoolClient, 'query'>;

/** The set-based path cannot reproduce the one-by-one result for this batch. */
export class NotExactInBatch extends Error {
  constructor(eventId: string) {
    super(`event ${eventId} was already recorded: the batch is recorded one by one`);
  }
}

async function storedVias(client: Queryable, subjects: string[]): Promise<Map<string, string>> {
  if (subjects.length === 0) return new Map();
  const { rows } = await client.query<{ subject_id: string; contract_id: string }>(
    `SELECT DISTINCT ON (subject_id) subject_id, contract_id FROM events
     WHERE subject_id = ANY($1::text[]) AND contract_id IS NOT NULL ORDER BY subject_id, seq`,
    [subjects],
  );
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

/** One insert of the whole batch; the ids it recorded (the others were recorded before). */
async function insertEvents(client: Queryable, events: readonly StoreEvent[], filings: readonly Filing[], views: ReadonlyArray<JsonObject | null>): Promise<Set<string>> {
  // ORDER BY the ordinality: `seq` is drawn after the sort, so it follows the batch order.
  const { rows } = await client.query<{ event_id: string }>(
    `INSERT INTO events (event_id, type, source, subject_id, occurred_at, actor, data, trace_id, contract_id, listing_id, public_data)
     SELECT event_id, type, source, subject_id, occurred_at, actor, data, trace_id, contract_id, listing_id, public_data
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::jsonb[], $8::text[], $9::text[], $10::text[], $11::jsonb[])
       WITH ORDINALITY AS b(event_id, type, source, subject_id, occurred_at, actor, data, trace_id, contract_id, listing_id, public_data, n)
     ORDER BY n
     ON CONFLICT (event_id) DO NOTHING
     RETURNING event_id`,
    [
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => e.source ?? ''),
      events.map((e) => e.subject_id ?? ''),
      // Dates, as the one-by-one insert passes them (a finer time is cut to the millisecond by JS, not rounded by PostgreSQL).
      events.map((e) => new Date(e.occurred_at)),
      events.map((e) => e.actor ?? null),
      events.map((e) => JSON.stringify(e.data ?? {})),
      events.map((e) => e.trace_id ?? null),
      filings.map((f) => f.contractId),
      filings.map((f) => f.listingId),
      views.map((v) => (v === null ? null : JSON.stringify(v))),
    ],
  );
  return new Set(rows.map((r) => r.event_id));
}

/**
 * Records `events` in order inside the caller's transaction, as recording them one by one would;
 * how many were new. Throws NotExactInBatch (after writing: the caller must roll back) when an
 * event others may depend on was already recorded.
 */
export async function recordBatch(client: Queryable, events: readonly StoreEvent[]): Promise<number> {
  const batch: Classified[] = firstOfEachId(events).map((event) => ({ event, filing: classifyEvent(event) }));
  const filings = resolveFilings(batch, await storedVias(client, viasToResolve(batch)));
  const ordered = batch.map((c) => c.event);
  const views = publicViews(ordered, filings, await storedBuyers(client, contractsToLookUp(ordered, filings)));
  const recorded = await insertEvents(client, ordered, filings, views);
  if (recorded.size < batch.length) {
    const stale = batch.find((c) => !recorded.has(c.event.id) && isStateful(c));
    if (stale !== undefined) throw new NotExactInBatch(stale.event.id);
  }
  for (let i = 0; i < ordered.length; i++) {
    if (recorded.has(ordered[i].id) && foldsFacts(ordered[i])) await foldFacts(client, ordered[i], filings[i]);
  }
  return recorded.size;
}
