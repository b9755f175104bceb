import type { EventEnvelope } from './envelope';

/**
 * The log fields of a failed delivery, the same on both buses: the first event of the batch (and
 * how many there were), the attempt, the wait before the redelivery and the handler's error.
 */
export function deliveryFailureFields(durable: string, events: EventEnvelope[], attempt: number, retryInMs: number, err: unknown): Record<string, unknown> {
  return {
    durable,
    event_id: events[0].id,
    type: events[0].type,
    ...(events.length > 1 ? { events: events.length } : {}),
    attempt,
    retry_in_ms: retryInMs,
    err: err instanceof Error ? err.message : String(err),
  };
}
