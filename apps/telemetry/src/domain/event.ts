// The DESIGN §5 envelope as telemetry reads it (structurally the @exchange/events EventEnvelope,
// declared here so the domain does not depend on the bus library).
export interface StoreEvent {
  id: string;
  type: string;
  source: string;
  subject_id: string;
  occurred_at: string;
  actor: string | null;
  data: unknown;
  trace_id: string | null;
}

/** The subject id as the store keeps it (an event without one is stored under ''). */
export function storedSubjectId(event: Pick<StoreEvent, 'subject_id'>): string {
  return event.subject_id ?? '';
}

/** `exchange.market.contract.settled` → { service: 'market', entity: 'contract', verb: 'settled' }. */
export function typeParts(type: string): { service: string; entity: string; verb: string } {
  const parts = type.split('.');
  return { service: parts[1] ?? '', entity: parts[2] ?? '', verb: parts.slice(3).join('.') };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A UTF-16 surrogate not part of a pair (with the u flag a pair is one astral code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether `s` holds a lone UTF-16 surrogate (not well-formed: node-postgres stores U+FFFD instead). */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/** The envelope's optional string keys (besides the required id and type). */
const OPTIONAL_STRINGS = ['source', 'subject_id', 'actor', 'trace_id'] as const;

/**
 * Why an envelope cannot be stored (null when it can): no id or type, an unreadable time, a
 * payload that is not an object, an envelope string with a lone UTF-16 surrogate. Such an event
 * is poison: retrying cannot fix it.
 *
 * A lone surrogate is not text: node-postgres sends it as U+FFFD, so the stored id, subject or
 * type would differ from the one the event carries and what the batch path compares in memory
 * (ids it recorded, subjects a post names) would not match the store (in `data`, PostgreSQL
 * refuses it: jsonb cannot hold it, 22P02).
 */
export function malformedReason(event: unknown): string | null {
  if (typeof event !== 'object' || event === null) return 'not an object';
  const e = event as Partial<Record<keyof StoreEvent, unknown>>;
  if (typeof e.id !== 'string' || e.id === '') return 'no id';
  if (typeof e.type !== 'string' || e.type.split('.').length < 3) return 'no type';
  if (typeof e.occurred_at !== 'string' || !RFC3339.test(e.occurred_at) || Number.isNaN(Date.parse(e.occurred_at))) return 'occurred_at is not an RFC 3339 time';
  if (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data)) return 'data is not an object';
  for (const k of OPTIONAL_STRINGS) {
    if (e[k] !== undefined && e[k] !== null && typeof e[k] !== 'string') return `${k} is not a string`;
  }
  for (const k of ['id', 'type', ...OPTIONAL_STRINGS] as const) {
    const v = e[k];
    if (typeof v === 'string' && hasLoneSurrogate(v)) return `${k} has a lone UTF-16 surrogate`;
  }
  return null;
}
