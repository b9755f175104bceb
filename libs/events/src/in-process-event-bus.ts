import type { Logger } from '@exchange/platform';
import type { EventEnvelope } from './envelope';
import { batchHandlerOf, batchSizeOf, type BatchHandler, type EventBus, type ListenOptions, type SubscribeOptions, type Subscription } from './event-bus';
import { deliveryFailureFields } from './delivery-failure';
import { retryDelayMs } from './retry-delay';
import { matchesAny } from './subject-match';

export interface InProcessEventBusOptions {
  logger: Logger;
  /** Events kept for durables that subscribe later (JetStream keeps the stream; we keep this many). */
  retainEvents?: number;
  /** And for at most this long (EVENTS_RETENTION_HOURS, as the stream's max_age; 0 or unset: no age limit). */
  maxAgeMs?: number;
  /** The clock the history's age is measured by (tests). */
  now?: () => number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

interface Durable {
  name: string;
  subjects: string[];
  /** The subscriber's handler as a batch one (a plain handler gets batches of one). */
  handler: BatchHandler | null;
  maxBatch: number;
  queue: EventEnvelope[];
  attempts: Map<string, number>;
  retryTimers: Set<NodeJS.Timeout>;
  draining: Promise<void> | null;
}

/**
 * The bus of the all-in-one mode (no NATS_URL), with JetStream's semantics where they matter:
 * publish deduplicates by event id, durables get the retained history on first subscribe and
 * keep receiving (queued) while stopped, delivery is asynchronous, one event (or one batch, for
 * a batch subscriber) at a time per durable, and a failing handler is retried with backoff for
 * as long as the process lives.
 */
export class InProcessEventBus implements EventBus {
  readonly kind = 'in-process' as const;
  /** The history, oldest first, each event with when it was published. */
  private readonly log: Array<{ event: EventEnvelope; at: number }> = [];
  private readonly seenIds = new Set<string>();
  private readonly durables = new Map<string, Durable>();
  private readonly listeners = new Set<ListenOptions>();
  private closed = false;

  constructor(private readonly opts: InProcessEventBusOptions) {}

  async publish(event: EventEnvelope): Promise<void> {
    if (this.closed) throw new Error('event bus closed');
    if (this.seenIds.has(event.id)) return; // same as Nats-Msg-Id deduplication
    const copy = structuredClone(event); // subscribers never share objects with the publisher
    this.remember(copy);
    for (const durable of this.durables.values()) {
      if (!matchesAny(durable.subjects, copy.type)) continue;
      durable.queue.push(copy);
      this.drain(durable);
    }
    for (const listener of this.listeners) {
      if (matchesAny(listener.subjects, copy.type)) setImmediate(() => this.notify(listener, copy));
    }
  }

  async listen(opts: ListenOptions): Promise<Subscription> {
    if (this.closed) throw new Error('event bus closed');
    const listener = { subjects: [...opts.subjects], handler: opts.handler };
    this.listeners.add(listener);
    return { stop: async () => void this.listeners.delete(listener) };
  }

  private async notify(listener: ListenOptions, event: EventEnvelope): Promise<void> {
    if (!this.listeners.has(listener)) return;
    try {
      await listener.handler(structuredClone(event));
    } catch (err) {
      this.opts.logger.warn({ type: event.type, err: (err as Error).message }, 'live event listener failed; event dropped');
    }
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('event bus closed');
    const maxBatch = batchSizeOf(opts); // before the durable exists: a refused subscribe leaves none
    let durable = this.durables.get(opts.durable);
    if (!durable) {
      durable = {
        name: opts.durable,
        subjects: [...opts.subjects],
        handler: null,
        maxBatch: 1,
        queue: this.history().filter((event) => matchesAny(opts.subjects, event.type)),
        attempts: new Map(),
        retryTimers: new Set(),
        draining: null,
      };
      this.durables.set(opts.durable, durable);
    } else if (durable.handler) {
      throw new Error(`durable ${opts.durable} already has an active subscriber`);
    }
    const handler = batchHandlerOf(opts);
    durable.subjects = [...opts.subjects];
    durable.handler = handler;
    durable.maxBatch = maxBatch;
    this.drain(durable);
    const subscribed = durable;
    return {
      stop: async () => {
        if (subscribed.handler === handler) subscribed.handler = null;
        await subscribed.draining;
      },
    };
  }

  /** The age limit of the history a new durable gets (Infinity without one), as JetStream's max_age. */
  async historyMs(): Promise<number> {
    return this.maxAgeMs() ?? Infinity;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    for (const durable of this.durables.values()) {
      durable.handler = null;
      for (const timer of durable.retryTimers) clearTimeout(timer);
      durable.retryTimers.clear();
    }
    await Promise.all([...this.durables.values()].map((durable) => durable.draining));
  }

  private remember(event: EventEnvelope): void {
    const retain = this.opts.retainEvents ?? 10_000;
    this.log.push({ event, at: this.now() });
    this.seenIds.add(event.id);
    while (this.log.length > retain) this.forgetOldest();
  }

  /** The history a new durable gets: events past the age limit go first. */
  private history(): EventEnvelope[] {
    const maxAgeMs = this.maxAgeMs();
    if (maxAgeMs !== undefined) {
      const oldest = this.now() - maxAgeMs;
      while (this.log.length > 0 && this.log[0].at < oldest) this.forgetOldest();
    }
    return this.log.map((entry) => entry.event);
  }

  private forgetOldest(): void {
    const dropped = this.log.shift();
    if (dropped) this.seenIds.delete(dropped.event.id);
  }

  private maxAgeMs(): number | undefined {
    const maxAgeMs = this.opts.maxAgeMs ?? 0;
    return maxAgeMs > 0 ? maxAgeMs : undefined;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private drain(durable: Durable): void {
    if (durable.draining || !durable.handler || durable.queue.length === 0) return;
    durable.draining = (async () => {
      // Yield first: delivery always happens after publish() returns, as with a real broker.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (durable.handler && durable.queue.length > 0) {
        const events = durable.queue.splice(0, durable.maxBatch);
        try {
          await durable.handler(events);
          for (const event of events) durable.attempts.delete(event.id);
        } catch (err) {
          this.scheduleRetry(durable, events, err);
        }
      }
    })().finally(() => {
      durable.draining = null;
      if (durable.handler && durable.queue.length > 0) this.drain(durable);
    });
  }

  private scheduleRetry(durable: Durable, events: EventEnvelope[], err: unknown): void {
    let attempt = 0;
    for (const event of events) {
      const n = (durable.attempts.get(event.id) ?? 0) + 1;
      durable.attempts.set(event.id, n);
      attempt = Math.max(attempt, n);
    }
    const delay = retryDelayMs(attempt, this.opts.retryBaseMs ?? 100, this.opts.retryMaxMs ?? 10_000);
    this.opts.logger.warn(deliveryFailureFields(durable.name, events, attempt, delay, err), 'event handler failed; will retry');
    const timer = setTimeout(() => {
      durable.retryTimers.delete(timer);
      if (this.closed) return;
      durable.queue.push(...events);
      this.drain(durable);
    }, delay);
    durable.retryTimers.add(timer);
  }
}
