import type { EventBus, Subscription } from '@exchange/events';
import type { Logger } from '@exchange/platform';
import type pg from 'pg';

// Placeholder until the ingest area is written: the durable consumer of exchange.> that fills the
// event store (idempotent by event id).
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
  return opts.bus.subscribe({ durable: opts.durable ?? EVENTS_CONSUMER, subjects: ALL_EVENTS, handler: async () => undefined });
}
