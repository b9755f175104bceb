import { newId } from '@exchange/platform';

/** DESIGN §5. `type` is also the NATS subject: `exchange.<service>.<entity>.<verb>`. */
export interface EventEnvelope<T = unknown> {
  id: string; // evt_<uuidv7>; doubles as Nats-Msg-Id for deduplication
  type: string;
  source: string;
  subject_id: string;
  occurred_at: string; // RFC 3339 UTC
  actor: string | null;
  data: T;
  trace_id: string | null;
}

const TYPE_PATTERN = /^[a-z0-9_-]+(\.[a-z0-9_-]+){2,}$/;

export function newEvent<T>(input: {
  type: string;
  source: string;
  subjectId: string;
  actor?: string | null;
  data: T;
  traceId?: string | null;
}): EventEnvelope<T> {
  // A malformed type would become a malformed NATS subject; fail where the event is built.
  if (!TYPE_PATTERN.test(input.type)) throw new Error(`invalid event type "${input.type}": expected <prefix>.<service>.<entity>.<verb>`);
  return {
    id: newId('evt'),
    type: input.type,
    source: input.source,
    subject_id: input.subjectId,
    occurred_at: new Date().toISOString(),
    actor: input.actor ?? null,
    data: input.data,
    trace_id: input.traceId ?? null,
  };
}

/** Parses and shape-checks an envelope received from the bus. */
export function parseEnvelope(json: string): EventEnvelope {
  const value = JSON.parse(json) as Partial<EventEnvelope> | null;
  if (!value || typeof value !== 'object' || typeof value.id !== 'string' || typeof value.type !== 'string') {
    throw new Error('not an event envelope');
  }
  return value as EventEnvelope;
}
