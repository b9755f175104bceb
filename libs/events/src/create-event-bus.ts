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
}

export async function createEventBus(opts: CreateEventBusOptions): Promise<EventBus> {
  if (!opts.natsUrl) return new InProcessEventBus({ logger: opts.logger });
  return createNatsEventBus({ ...opts, natsUrl: opts.natsUrl });
}
