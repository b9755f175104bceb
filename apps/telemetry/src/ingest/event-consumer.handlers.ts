import type { EventBus, EventEnvelope, Subscription } from '@exchange/events';
import { DomainError, type Logger } from '@exchange/platform';
import type pg from 'pg';
import { malformedReason } from '../domain/event';
import { ingestBatch, ingestEvent } from './event-store.repo';

// The one durable consumer of every domain event (`exchange.>`, at least once). The bus hands it
// the events waiting (up to 64) and they are recorded in one transaction, once by id, so a
// redelivery is acknowledged without doubling anything. A malformed event (no id or type, a bad
// time or amount, a lone UTF-16 surrogate in an envelope string) is logged and acknowledged:
// retrying cannot fix it and it must not hold up the stream. When a batch fails, its events are
// recorded one by one, each in its own transaction: a payload that recording refuses
// (DomainError) is logged and dropped alone; a database failure or refusal (say a NUL byte jsonb
// cannot hold) does not stop the others and is thrown at the end,
// so the bus redelivers the batch: the recorded ones are skipped by id, the failed one is retried
// (for ever, if the database keeps refusing it) without holding up its neighbours.

export const EVENTS_CONSUMER = 'telemetry-events';
export const ALL_EVENTS = ['exchange.>'];

export interface EventConsumerOptions {
  bus: EventBus;
  pool: pg.Pool;
  logger: Logger;
  notify: () => void;
  durable?: string;
}

export function startEventConsumer(opts: EventConsumerOptions): Promise<Subscription> {
  const durable = opts.durable ?? EVENTS_CONSUMER;
  const wellFormed = (event: EventEnvelope): boolean => {
    const reason = malformedReason(event);
    if (reason === null) return true;
    opts.logger.error({ durable, event_id: (event as { id?: unknown })?.id, reason }, 'dropping a malformed event');
    return false;
  };
  const one = async (event: EventEnvelope): Promise<void> => {
    try {
      await ingestEvent(opts.pool, event);
    } catch (err) {
      // A DomainError is the payload's fault (e.g. invalid_amount): poison, not a database failure.
      if (!(err instanceof DomainError)) throw err;
      opts.logger.error({ durable, event_id: event.id, type: event.type, code: err.code, err: err.message }, 'dropping an event that cannot be recorded');
    }
  };
  const recordDelivered = async (events: EventEnvelope[]): Promise<void> => {
    const valid = events.filter(wellFormed);
    if (valid.length === 0) return;
    if (valid.length > 1) {
      try {
        await ingestBatch(opts.pool, valid);
        return;
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        opts.logger.warn({ durable, events: valid.length, code, err: err instanceof Error ? err.message : String(err) }, 'recording a batch failed; recording its events one by one');
      }
    }
    // Every event gets its own attempt, so one the database keeps refusing cannot hold up the
    // rest; the first failure is thrown afterwards to have the batch redelivered.
    let failure: { err: unknown } | null = null;
    for (const event of valid) {
      try {
        await one(event);
      } catch (err) {
        failure ??= { err };
      }
    }
    if (failure) throw failure.err;
  };
  // Both buses hand this durable batches; `handler` is the same path for one event.
  return opts.bus.subscribe({ durable, subjects: ALL_EVENTS, handler: (event) => recordDelivered([event]), batch: { handler: recordDelivered } });
}
