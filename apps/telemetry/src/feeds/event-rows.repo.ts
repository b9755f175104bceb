import type { EventKey, OperatorEvent } from '../domain/stored-event';
import type { EventQuery } from '../domain/event-filter';

// The event store's rows as the feeds, exports and timelines read them. `data` comes back as text
// (jsonb's own rendering): the lists and exports pass it on without parsing it.

export const OPERATOR_COLUMNS = `e.seq::text AS seq, e.event_id, e.type, e.source, e.subject_id, e.occurred_at, e.actor,
  e.data::text AS data_json, e.trace_id, e.contract_id, e.listing_id, e.recorded_at`;

export interface OperatorRow {
  seq: string;
  event_id: string;
  type: string;
  source: string;
  subject_id: string;
  occurred_at: Date;
  actor: string | null;
  data_json: string;
  trace_id: string | null;
  contract_id: string | null;
  listing_id: string | null;
  recorded_at: Date;
}

export function toOperatorEvent(r: OperatorRow): OperatorEvent {
  return {
    seq: r.seq,
    eventId: r.event_id,
    type: r.type,
    source: r.source,
    subjectId: r.subject_id,
    occurredAt: r.occurred_at,
    actor: r.actor,
    dataJson: r.data_json,
    traceId: r.trace_id,
    contractId: r.contract_id,
    listingId: r.listing_id,
    recordedAt: r.recorded_at,
  };
}

/** WHERE conditions (ANDed) of a checked filter and a seq keyset, with their parameters appended to `params`. */
export function filterConditions(query: EventQuery, after: EventKey | null, params: unknown[]): string[] {
  const conds: string[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (after) conds.push(`e.seq > ${param(after.seq)}::bigint`);
  if (query.contractId !== undefined) conds.push(`e.contract_id = ${param(query.contractId)}`);
  if (query.listingId !== undefined) conds.push(`e.listing_id = ${param(query.listingId)}`);
  if (query.type && 'exact' in query.type) conds.push(`e.type = ${param(query.type.exact)}`);
  // starts_with, not LIKE: '_' in a type is a LIKE wildcard.
  if (query.type && 'prefix' in query.type) conds.push(`starts_with(e.type, ${param(query.type.prefix)})`);
  if (query.from) conds.push(`e.occurred_at >= ${param(query.from)}`);
  if (query.to) conds.push(`e.occurred_at < ${param(query.to)}`);
  return conds;
}

export function whereClause(conds: string[]): string {
  return conds.length === 0 ? '' : `WHERE ${conds.join(' AND ')}`;
}
