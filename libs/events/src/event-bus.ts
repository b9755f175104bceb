import type { EventEnvelope } from './envelope';

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface SubscribeOptions {
  /** Durable name: the bus remembers what this consumer has processed across subscribe/stop. */
  durable: string;
  /** NATS subject patterns (`exchange.identity.agent.*`, `exchange.>`). */
  subjects: string[];
  /** Resolving acknowledges the event; throwing redelivers it later with backoff. */
  handler: EventHandler;
  /**
   * Optional, for a consumer whose cost is per transaction rather than per event (telemetry): the
   * bus hands it the events already waiting for this durable, up to `max` (an integer ≥ 1,
   * default 64) in order, in one call. With `batch`, `handler` is never called for this durable:
   * every event, even one alone, goes to `batch.handler`. Resolving acknowledges all of them;
   * throwing redelivers all of them later, so it must be idempotent per event, as every handler
   * is.
   */
  batch?: { handler: BatchHandler; max?: number };
}

export type BatchHandler = (events: EventEnvelope[]) => Promise<void>;

export const DEFAULT_MAX_BATCH = 64;

/**
 * The most events one handler call gets: 1 without `batch`, else `batch.max` (default 64). Both
 * buses size batches with it, so a max means the same on either; anything but an integer ≥ 1
 * throws at subscribe (NaN would make empty batches, a fraction differ between buses).
 */
export function batchSizeOf(opts: Pick<SubscribeOptions, 'batch'>): number {
  if (!opts.batch) return 1;
  const max = opts.batch.max ?? DEFAULT_MAX_BATCH;
  if (!Number.isSafeInteger(max) || max < 1) throw new Error(`batch.max must be an integer ≥ 1, got ${max}`);
  return max;
}

/** The subscriber's handler as a batch one: its own batch handler, else `handler` per event (batches of one). */
export function batchHandlerOf(opts: Pick<SubscribeOptions, 'batch' | 'handler'>): BatchHandler {
  return opts.batch?.handler ?? ((events) => opts.handler(events[0]));
}

/**
 * Live fan-out: every listener — every replica of a service — receives each event published
 * from now on, at most once: no history, no acknowledgement, no redelivery. For caches whose
 * entries a TTL also bounds (an event missed while disconnected only waits for the TTL).
 */
export interface ListenOptions {
  subjects: string[];
  /** Errors are logged and dropped (nothing redelivers a live event). */
  handler: EventHandler;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface EventBus {
  publish(event: EventEnvelope): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  listen(opts: ListenOptions): Promise<Subscription>;
  /**
   * How long after an event is published this bus may still deliver it to a durable (a
   * redelivery, or a new durable reading the history); Infinity when it keeps events for ever.
   * A consumer's record of an event processed longer ago than that is never needed again.
   */
  historyMs(): Promise<number>;
  close(): Promise<void>;
  readonly kind: 'nats' | 'in-process';
}
