import type { EventBus, Subscription } from '@exchange/events';
import { DomainError, type Logger } from '@exchange/platform';
import type pg from 'pg';
import { malformedReason } from '../domain/event';
import { ingestEvent } from './event-store.repo';

// The one durable consumer of every domain event (`exchange.>`, at least once): each event is
// recorded in its own transaction, once by id, so a redelivery is acknowledged without doubling
// anything. A malformed event (no id or type, a bad time or amount) is logged and acknowledged:
// retrying cannot fix it and it must not hold up the stream. A database failure throws, and the
// bus redelivers the event later.

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
  return opts.bus.subscribe({
    durable,
    subjects: ALL_EVENTS,
    handler: async (event) => {
      const reason = malformedReason(event);
      if (reason !== null) {
        opts.logger.error({ durable, event_id: (event as { id?: unknown })?.id, reason }, 'dropping a malformed event');
        return;
      }
      try {
        await ingestEvent(opts.pool, event);
      } catch (err) {
        // A DomainError is the payload's fault (e.g. invalid_amount): poison, not a database failure.
        if (!(err instanceof DomainError)) throw err;
        opts.logger.error({ durable, event_id: event.id, type: event.type, code: err.code, err: err.message }, 'dropping an event that cannot be recorded');
      }
    },
  });
}
