import type pg from 'pg';
import { OutageLatch, type Logger } from '@exchange/platform';
import type { EventEnvelope } from './envelope';
import type { EventBus } from './event-bus';
import { retryDelayMs } from './retry-delay';

export interface OutboxRelayOptions {
  pool: pg.Pool;
  bus: EventBus;
  logger: Logger;
  pollIntervalMs?: number;
  batchSize?: number;
  /** Upper bound of the wait between attempts while the bus or database is failing. */
  maxBackoffMs?: number;
  /**
   * After a wake-up, wait this long before the next round so the commits landing meanwhile go
   * out in the same round (default 10 ms). Under load this turns one relay round per few events
   * into one per batch: the relay's own queries stop competing with the writes it follows.
   */
  coalesceMs?: number;
}

export interface OutboxRelayStatus {
  running: boolean;
  /** Completed publish rounds (successful or not). */
  rounds: number;
  published: number;
  failedRounds: number;
  /** Set while an outage lasts, cleared by the next successful round. */
  lastError: string | null;
}

interface RoundResult {
  published: number;
  fetched: number;
  error: unknown;
}

/**
 * Publishes committed outbox rows to the bus. Rows are claimed with FOR UPDATE SKIP LOCKED, so
 * several relays (replicas) share the table without publishing a row twice in parallel; a row
 * is marked only after the bus acknowledged it, so a failure leaves it for the next round.
 */
export class OutboxRelay {
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxBackoffMs: number;
  private readonly coalesceMs: number;
  private readonly logger: Logger;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private woken = false;
  private consecutiveFailures = 0;
  private readonly stats: OutboxRelayStatus = { running: false, rounds: 0, published: 0, failedRounds: 0, lastError: null };
  private readonly outage = new OutageLatch(
    (err) => this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'outbox relay cannot publish; events stay in the outbox and are retried'),
    () => this.logger.info({ failed_rounds: this.consecutiveFailures }, 'outbox relay publishing again'),
  );

  constructor(private readonly opts: OutboxRelayOptions) {
    this.pollIntervalMs = opts.pollIntervalMs ?? 500;
    this.batchSize = opts.batchSize ?? 100;
    this.maxBackoffMs = opts.maxBackoffMs ?? 15_000;
    this.coalesceMs = opts.coalesceMs ?? 10;
    this.logger = opts.logger.child({ component: 'outbox-relay' });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stats.running = true;
    this.loop = this.run();
  }

  /** Call after committing a transaction that enqueued events: publishes now instead of at the next poll. */
  notify(): void {
    this.woken = true;
    this.wake?.();
  }

  status(): OutboxRelayStatus {
    return { ...this.stats };
  }

  /** Stops polling, then publishes what is still pending unless the bus is failing. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stats.running = false;
    this.notify();
    await this.loop;
    for (;;) {
      const result = await this.round();
      if (result.error || result.fetched < this.batchSize) break;
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      const result = await this.round();
      if (!this.running) break;
      if (result.error) {
        await this.sleep(retryDelayMs(this.consecutiveFailures, this.pollIntervalMs, this.maxBackoffMs));
      } else if (result.fetched < this.batchSize) {
        await this.sleep(this.pollIntervalMs);
        if (this.running && this.coalesceMs > 0) await new Promise((resolve) => setTimeout(resolve, this.coalesceMs));
      }
    }
  }

  private async round(): Promise<RoundResult> {
    let result: RoundResult;
    try {
      result = await this.publishBatch();
    } catch (err) {
      result = { published: 0, fetched: 0, error: err };
    }
    this.stats.rounds += 1;
    this.stats.published += result.published;
    if (result.error) this.recordFailure(result.error);
    else this.recordSuccess();
    return result;
  }

  private async publishBatch(): Promise<RoundResult> {
    const client = await this.opts.pool.connect();
    const published: string[] = [];
    let fetched = 0;
    let error: unknown = null;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ id: string; payload: EventEnvelope }>(
        `SELECT id, payload FROM outbox_events
          WHERE published_at IS NULL
          ORDER BY created_at, id
          LIMIT $1
          FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      fetched = rows.length;
      const failure = await this.publishInOrder(rows.map((row) => row.payload));
      published.push(...rows.slice(0, failure?.index ?? rows.length).map((row) => row.id));
      error = failure?.error ?? null;
      if (published.length > 0) {
        await client.query('UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::text[])', [published]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(err instanceof Error ? err : true);
      // Rows published but not marked are published again later; the bus deduplicates by event id.
      return { published: 0, fetched, error: err };
    }
    client.release();
    return { published: published.length, fetched, error };
  }

  /**
   * Publishes `events` in order; the first failure (its index and error) or null. While the bus is
   * healthy every publish is sent at once: one connection keeps them in order on the wire, so the
   * stream stores them in order, and a round costs one round trip instead of one per event. Only
   * the acknowledged prefix is marked published, but when one fails mid-round the events after it
   * were sent too and may already be stored, ahead of it; they are republished after it, and
   * stored twice if the failure outlasts the stream's duplicate window (2 minutes). Consumers are
   * idempotent by event id and already take events out of order (naks, replicas). After a failed
   * round they go one by one, stopping at the first failure, so an event the bus keeps refusing
   * is not followed, round after round, by copies of the events behind it.
   */
  private async publishInOrder(events: EventEnvelope[]): Promise<{ index: number; error: unknown } | null> {
    const { bus } = this.opts;
    if (this.consecutiveFailures === 0) {
      // An async wrapper turns a publish that throws synchronously into that event's rejection
      // instead of aborting the map (it still calls each publish at once, in order).
      const send = async (event: EventEnvelope) => bus.publish(event);
      const results = await Promise.allSettled(events.map(send));
      const index = results.findIndex((result) => result.status === 'rejected');
      return index < 0 ? null : { index, error: (results[index] as PromiseRejectedResult).reason };
    }
    for (let index = 0; index < events.length; index++) {
      try {
        await bus.publish(events[index]);
      } catch (error) {
        return { index, error };
      }
    }
    return null;
  }

  private recordFailure(err: unknown): void {
    this.consecutiveFailures += 1;
    this.stats.failedRounds += 1;
    this.outage.fail(err); // once per outage, not per row or per retry
    this.stats.lastError = err instanceof Error ? err.message : String(err);
  }

  private recordSuccess(): void {
    this.outage.ok(); // reads consecutiveFailures: before the reset
    this.stats.lastError = null;
    this.consecutiveFailures = 0;
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
