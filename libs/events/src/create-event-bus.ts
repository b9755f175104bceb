import type { Logger } from '@exchange/platform';
import type { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';
import { createNatsEventBus } from './nats-event-bus';

export interface CreateEventBusOptions {
  /** Set: JetStream. Unset: the in-process bus of the all-in-one mode. */
  natsUrl?: string;
  logger: Logger;
  /** Stream name and subject prefix; default EXCHANGE / exchange (tests use their own). */
  streamName?: string;
  subjectPrefix?: string;
  publishTimeoutMs?: number;
  connectionName?: string;
  /** How long events are kept (EVENTS_RETENTION_HOURS; 0: for ever); unset: leave the stream's retention as it is (NatsEventBusOptions.maxAgeMs). */
  maxAgeMs?: number;
}

export async function createEventBus(opts: CreateEventBusOptions): Promise<EventBus> {
  if (!opts.natsUrl) return new InProcessEventBus({ logger: opts.logger, maxAgeMs: opts.maxAgeMs });
  return createNatsEventBus({ ...opts, natsUrl: opts.natsUrl });
}
