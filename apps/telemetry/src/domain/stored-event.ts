import { decodeCursor, errors, type CursorKey } from '@exchange/platform';

/** An event as the operator reads it: the envelope as published, where it was filed, its place in the store. */
export interface OperatorEvent {
  /** Position in the store (bigint as decimal). */
  seq: string;
  eventId: string;
  type: string;
  source: string;
  subjectId: string;
  occurredAt: Date;
  actor: string | null;
  /** The payload as stored (JSON object text). */
  dataJson: string;
  traceId: string | null;
  contractId: string | null;
  listingId: string | null;
  recordedAt: Date;
}

/** An event as a stranger reads it: no source, actor or operator payload. */
export interface PublicEvent {
  seq: string;
  eventId: string;
  type: string;
  subjectId: string;
  occurredAt: Date;
  contractId: string | null;
  listingId: string | null;
  /** The public projection, current alias applied (JSON object text). */
  dataJson: string;
}

/**
 * One JSONL line of an export (DESIGN §5 envelope in snake_case, plus where telemetry filed it).
 * `data` is spliced in as stored — it is already JSON — so a million lines cost no parse/stringify.
 */
export function operatorEventLine(e: OperatorEvent): string {
  const s = JSON.stringify;
  return (
    `{"id":${s(e.eventId)},"type":${s(e.type)},"source":${s(e.source)},"subject_id":${s(e.subjectId)},` +
    `"occurred_at":${s(e.occurredAt.toISOString())},"actor":${s(e.actor)},"data":${e.dataJson},` +
    `"trace_id":${s(e.traceId)},"contract_id":${s(e.contractId)},"listing_id":${s(e.listingId)},` +
    `"seq":${s(e.seq)},"recorded_at":${s(e.recordedAt.toISOString())}}\n`
  );
}

/** Where a page ends: the store position, and occurred_at for the timeline's (occurred_at, seq) order. */
export interface EventKey {
  occurredAt: Date;
  seq: string;
}

const SEQ = /^[1-9][0-9]{0,18}$/;

/** The key libs/platform's opaque cursor encodes for the last event on a page (`toPage`). */
export function eventCursorKey(e: { occurredAt: Date; seq: string }): CursorKey {
  return { createdAt: e.occurredAt, id: e.seq };
}

/** The key a cursor points at; anything this service did not give out → 400 invalid_cursor. */
export function eventKeyOf(cursor: string | undefined): EventKey | null {
  if (cursor === undefined || cursor === '') return null;
  const key = decodeCursor(cursor);
  if (!SEQ.test(key.id) || BigInt(key.id) > 9223372036854775807n) throw errors.invalidArgument('invalid_cursor', 'cursor is not valid');
  return { occurredAt: key.createdAt, seq: key.id };
}
