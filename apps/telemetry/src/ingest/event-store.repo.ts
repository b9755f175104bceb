import { withTransaction } from '@exchange/db';
import type pg from 'pg';
import { classifyEvent, inheritsContract, type Filing } from '../domain/classify';
import type { StoreEvent } from '../domain/event';
import { factsOf, hiddenBuyers } from '../domain/facts';
import { isPublicType, publicView } from '../domain/public-view';
import { NotExactInBatch, recordBatch } from './batch-store.repo';
import { EVENT_COLUMNS, eventRow } from './event-row';
import { foldFacts } from './facts.repo';

// Recording one event in the event store: the row (once, by event id), where it is filed, its
// public projection, and the facts it updates, all in one transaction. A duplicate changes
// nothing: the insert finds the id and everything else is skipped.

type Queryable = Pick<pg.PoolClient, 'query'>;
type PoolLike = Pick<pg.Pool, 'connect'>;

function isPool(db: Queryable | PoolLike): db is PoolLike {
  return typeof (db as { release?: unknown }).release !== 'function' && typeof (db as PoolLike).connect === 'function';
}

/**
 * The contract of the first event with subject $1 that has a contract. The batch asks the same
 * for many subjects at once (batch-store.repo.ts STORED_VIAS): a change to either query is made
 * in both. Exported for the plan spec (EXPLAIN).
 */
export const RESOLVE_VIA = 'SELECT contract_id FROM events WHERE subject_id = $1 AND contract_id IS NOT NULL ORDER BY seq LIMIT 1';

/** The contract of the earlier event an event names (a post's thread, a delivery's artifact). */
async function resolveVia(client: Queryable, filing: Filing): Promise<Filing> {
  if (!inheritsContract(filing)) return filing;
  const { rows } = await client.query<{ contract_id: string }>(RESOLVE_VIA, [filing.via]);
  return { ...filing, contractId: rows[0]?.contract_id ?? null };
}

/** The private buyer of the event's contract, as recorded so far: never shown publicly. */
async function privateParties(client: Queryable, contractId: string | null): Promise<string[]> {
  if (contractId === null) return [];
  const { rows } = await client.query<{ buyer_id: string; buyer_private: boolean }>(
    'SELECT buyer_id, buyer_private FROM contract_facts WHERE contract_id = $1',
    [contractId],
  );
  // The rule (private, and a buyer known) is hiddenBuyers', as the batch's replay applies it.
  return rows.length === 0 ? [] : hiddenBuyers({ buyerId: rows[0].buyer_id, buyerPrivate: rows[0].buyer_private });
}

const INSERT_EVENT = `INSERT INTO events (${EVENT_COLUMNS.join(', ')})
  VALUES (${EVENT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (event_id) DO NOTHING`;

async function record(client: Queryable, event: StoreEvent): Promise<boolean> {
  const filing = await resolveVia(client, classifyEvent(event));
  // An operator-only event has no public view: no private buyer to look up.
  const view = isPublicType(event.type) ? publicView(event, { privateParties: await privateParties(client, filing.contractId) }) : null;
  const row = eventRow(event, filing, view);
  const inserted = await client.query(INSERT_EVENT, EVENT_COLUMNS.map((c) => row[c]));
  if (inserted.rowCount === 0) return false;
  await foldFacts(client, factsOf(event), filing);
  return true;
}

/**
 * Records `event` once. With a pool it runs in its own transaction; with a client it joins the
 * caller's (the caller begins and commits). Returns false for an event id already recorded, and
 * then changes nothing. Amounts that are not decimal strings throw (invalid_amount).
 */
export async function ingestEvent(db: Queryable | PoolLike, event: StoreEvent): Promise<boolean> {
  return isPool(db) ? withTransaction(db, (client) => record(client, event)) : record(db, event);
}

/**
 * Records `events` in order in ONE transaction (the event consumer's batches): a commit, and its
 * WAL flush, per batch instead of per event, and one insert for the batch (recordBatch). Each
 * event sees the ones before it, as one by one; when the set-based path cannot show that exactly
 * (a stateful event was recorded already while others of the batch were not, as on a partial
 * redelivery; an id or subject that is not well-formed), the batch is recorded event by event in
 * a fresh transaction. Any other failure rolls the whole batch back and is
 * thrown. Returns how many were new.
 */
export async function ingestBatch(pool: PoolLike, events: readonly StoreEvent[]): Promise<number> {
  try {
    return await withTransaction(pool, (client) => recordBatch(client, events));
  } catch (err) {
    if (!(err instanceof NotExactInBatch)) throw err;
  }
  return withTransaction(pool, (client) => ingestEvents(client, events));
}

/** Records events in order, each in its own transaction (a pool) or in the caller's (a client); how many were new. */
export async function ingestEvents(db: Queryable | PoolLike, events: readonly StoreEvent[]): Promise<number> {
  let created = 0;
  for (const event of events) if (await ingestEvent(db, event)) created++;
  return created;
}
