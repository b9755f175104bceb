import type { Filing } from '../domain/classify';
import { storedSubjectId, type StoreEvent } from '../domain/event';
import type { JsonObject } from '../domain/event-json';

// The `events` row of one event, as both the one-by-one insert (event-store.repo.ts) and the
// batch's unnest (batch-store.repo.ts) write it: one definition, so the two paths cannot store
// an envelope differently.

const COLUMNS = [
  ['event_id', 'text'], ['type', 'text'], ['source', 'text'], ['subject_id', 'text'], ['occurred_at', 'timestamptz'], ['actor', 'text'],
  ['data', 'jsonb'], ['trace_id', 'text'], ['contract_id', 'text'], ['listing_id', 'text'], ['public_data', 'jsonb'],
] as const;

export type EventColumn = (typeof COLUMNS)[number][0];

/** The columns an insert fills, in order. */
export const EVENT_COLUMNS: readonly EventColumn[] = COLUMNS.map(([name]) => name);

/** Their PostgreSQL types, in the same order (the batch's unnest casts each parameter array). */
export const EVENT_COLUMN_TYPES: readonly string[] = COLUMNS.map(([, type]) => type);

/** The values of `event`'s row by column (pass `EVENT_COLUMNS.map((c) => row[c])` as parameters). */
export function eventRow(event: StoreEvent, filing: Filing, view: JsonObject | null): Record<EventColumn, unknown> {
  return {
    event_id: event.id,
    type: event.type,
    source: event.source ?? '',
    subject_id: storedSubjectId(event),
    // A Date (a finer time than the millisecond is cut by JS, not rounded by PostgreSQL).
    occurred_at: new Date(event.occurred_at),
    actor: event.actor ?? null,
    data: JSON.stringify(event.data ?? {}),
    trace_id: event.trace_id ?? null,
    contract_id: filing.contractId,
    listing_id: filing.listingId,
    public_data: view === null ? null : JSON.stringify(view),
  };
}
