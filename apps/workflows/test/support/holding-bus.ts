/**
 * A bus that forwards to another one but can hold the events some publisher emits (here the fake
 * market's) while NATS is away, and publish them, in order, once it is back — what the market's
 * own outbox does in production. Everything else (the workflows service's outbox relay, its
 * durable consumer) goes straight to the inner bus and sees the outage as it is.
 */
import type { EventBus, EventEnvelope, ListenOptions, SubscribeOptions, Subscription } from '@exchange/events';

export class HoldingBus implements EventBus {
  private holding = false;
  private readonly held: EventEnvelope[] = [];

  constructor(
    private readonly inner: EventBus,
    private readonly holds: (event: EventEnvelope) => boolean,
  ) {}

  get kind(): EventBus['kind'] {
    return this.inner.kind;
  }

  /** From now on, matching events are kept instead of published. */
  hold(): void {
    this.holding = true;
  }

  heldEvents(): readonly EventEnvelope[] {
    return [...this.held];
  }

  /**
   * Stops holding and publishes what was held, in order, each retried until the inner bus takes it
   * (the connection may still be reconnecting); returns how many were published.
   */
  async release(timeoutMs = 60_000): Promise<number> {
    this.holding = false;
    const deadline = Date.now() + timeoutMs;
    let published = 0;
    while (this.held.length > 0) {
      try {
        await this.inner.publish(this.held[0]);
        this.held.shift();
        published++;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return published;
  }

  async publish(event: EventEnvelope): Promise<void> {
    if (this.holding && this.holds(event)) {
      this.held.push(event);
      return;
    }
    await this.inner.publish(event);
  }

  subscribe(opts: SubscribeOptions): Promise<Subscription> {
    return this.inner.subscribe(opts);
  }

  listen(opts: ListenOptions): Promise<Subscription> {
    return this.inner.listen(opts);
  }

  historyMs(): Promise<number> {
    return this.inner.historyMs();
  }

  /** The inner bus is the test's to close. */
  async close(): Promise<void> {
    return undefined;
  }
}
