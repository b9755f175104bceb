import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiError,
  StorageType,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { connect, millis, nanos, type NatsConnection } from '@nats-io/transport-node';
import { OutageLatch, type Logger } from '@exchange/platform';
import { parseEnvelope, type EventEnvelope } from './envelope';
import { batchHandlerOf, batchSizeOf, DEFAULT_MAX_BATCH, type BatchHandler, type EventBus, type ListenOptions, type SubscribeOptions, type Subscription } from './event-bus';
import { deliveryFailureFields } from './delivery-failure';
import { retryDelayMs } from './retry-delay';
import { matchesAny } from './subject-match';

export interface NatsEventBusOptions {
  natsUrl: string;
  logger: Logger;
  /** Defaults: stream EXCHANGE on subjects exchange.> (DESIGN §5); tests pass their own. */
  streamName?: string;
  subjectPrefix?: string;
  /** How long publish() waits for JetStream's ack before failing (the outbox retries). */
  publishTimeoutMs?: number;
  connectionName?: string;
  /**
   * How long the stream keeps an event (JetStream `max_age`; 0: for ever), EVENTS_RETENTION_HOURS
   * of the services. The stream gets it when created, and an existing stream with another value
   * is changed to it (logged). Unset (the gateway, which only listens): the stream's retention is
   * left as it is, and a stream this bus creates keeps events for ever.
   */
  maxAgeMs?: number;
}

// Same Nats-Msg-Id twice within this window is stored once: covers an outbox relay that
// published but crashed before marking the row.
const DUPLICATE_WINDOW_MS = 2 * 60_000;
const STREAM_NAME_IN_USE = 10058;
const ACK_WAIT_MS = 60_000;

export async function createNatsEventBus(opts: NatsEventBusOptions): Promise<NatsEventBus> {
  const { maxAgeMs } = opts;
  if (maxAgeMs !== undefined && !(Number.isSafeInteger(maxAgeMs) && (maxAgeMs === 0 || maxAgeMs >= DUPLICATE_WINDOW_MS))) {
    // JetStream refuses a max_age shorter than the duplicate window (and nanoseconds are integers); say so before connecting.
    throw new Error(`event retention must be 0 (for ever) or a whole number of ms of at least ${DUPLICATE_WINDOW_MS}, got ${maxAgeMs}`);
  }
  const streamName = opts.streamName ?? 'EXCHANGE';
  const subjectPrefix = opts.subjectPrefix ?? 'exchange';
  const logger = opts.logger.child({ component: 'nats-event-bus' });
  // Reconnect forever: the outbox keeps events while NATS is away, the connection must come back.
  const nc = await connect({
    servers: opts.natsUrl,
    name: opts.connectionName,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    waitOnFirstConnect: true,
    // Otherwise every request (each JetStream publish) builds an Error up front for a stack trace
    // it rarely needs: ~3% of wallet-ledger's CPU under the ledger bench.
    noAsyncTraces: true,
  });
  void watchStatus(nc, logger);
  let jsm: JetStreamManager;
  try {
    jsm = await jetstreamManager(nc);
    await ensureStream(jsm, { name: streamName, subjects: `${subjectPrefix}.>`, maxAgeMs: opts.maxAgeMs }, logger);
  } catch (err) {
    await nc.close(); // or it reconnects for ever behind a bus nobody holds
    throw err;
  }
  logger.info({ stream: streamName, server: nc.getServer() }, 'connected to NATS JetStream');
  return new NatsEventBus(nc, jsm, jetstream(nc), { streamName, subjectPrefix, logger, publishTimeoutMs: opts.publishTimeoutMs ?? 5_000 });
}

interface StreamPlan {
  name: string;
  subjects: string;
  maxAgeMs: number | undefined;
}

async function ensureStream(jsm: JetStreamManager, plan: StreamPlan, logger: Logger): Promise<void> {
  const maxAge = plan.maxAgeMs === undefined ? undefined : nanos(plan.maxAgeMs);
  // Twice at most: when another service creates the stream between our look and our add (the
  // gateway, say, without a retention), the second look applies ours to what it created.
  for (let look = 0; look < 2; look++) {
    const info = await jsm.streams.info(plan.name).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (info) {
      if (maxAge !== undefined && info.config.max_age !== maxAge) await changeMaxAge(jsm, plan.name, info.config.max_age, maxAge, logger);
      return;
    }
    try {
      await jsm.streams.add({
        name: plan.name,
        subjects: [plan.subjects],
        storage: StorageType.File,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
        ...(maxAge !== undefined ? { max_age: maxAge } : {}),
      });
      return;
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === STREAM_NAME_IN_USE)) throw err;
    }
  }
}

/**
 * Every service is meant to get the same EVENTS_RETENTION_HOURS; a service started with another
 * changes the stream (the last one started wins), and a shorter one drops the older events at
 * once. Not fatal when refused (a NATS account without that permission): events flow as before,
 * and the processed-event pruning follows the stream's real max_age.
 */
async function changeMaxAge(jsm: JetStreamManager, stream: string, from: number, to: number, logger: Logger): Promise<void> {
  const change = { stream, from: retentionLabel(from), to: retentionLabel(to) };
  await jsm.streams.update(stream, { max_age: to }).then(
    () => logger.warn(change, 'event stream retention changed'),
    (err: Error) => logger.error({ ...change, err: err.message }, 'could not change the event stream retention; it stays as it was'),
  );
}

/** JetStream's answer for a stream or consumer that does not exist. */
function isNotFound(err: unknown): boolean {
  return err instanceof JetStreamApiError && /not found/i.test(err.message);
}

/** `max_age` (nanoseconds, 0 = none) for a log line: "168h", "for ever". */
function retentionLabel(maxAgeNanos: number): string {
  return maxAgeNanos > 0 ? `${millis(maxAgeNanos) / 3_600_000}h` : 'for ever';
}

async function watchStatus(nc: NatsConnection, logger: Logger): Promise<void> {
  for await (const status of nc.status()) {
    if (status.type === 'disconnect') logger.warn({ server: status.server }, 'NATS connection lost; reconnecting');
    else if (status.type === 'reconnect') logger.info({ server: status.server }, 'NATS connection restored');
  }
}

interface BusSettings {
  streamName: string;
  subjectPrefix: string;
  logger: Logger;
  publishTimeoutMs: number;
}

export class NatsEventBus implements EventBus {
  readonly kind = 'nats' as const;
  private readonly subscriptions = new Set<Subscription>();
  private readonly historyReads = new OutageLatch(
    (err) => this.settings.logger.warn({ stream: this.settings.streamName, err: err instanceof Error ? err.message : String(err) }, 'cannot read the event stream retention; processed-event records are kept meanwhile'),
    () => this.settings.logger.info({ stream: this.settings.streamName }, 'event stream retention readable again'),
  );

  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly settings: BusSettings,
  ) {}

  async publish(event: EventEnvelope): Promise<void> {
    if (!event.type.startsWith(`${this.settings.subjectPrefix}.`)) {
      throw new Error(`event type ${event.type} is outside stream ${this.settings.streamName} (${this.settings.subjectPrefix}.>)`);
    }
    await this.js.publish(event.type, JSON.stringify(event), { msgID: event.id, timeout: this.settings.publishTimeoutMs });
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    const { streamName, logger } = this.settings;
    const size = batchSizeOf(opts);
    // One subject filters on the server; several are filtered here, because filter_subjects
    // needs nats-server 2.10+ and the durable must work on older servers too.
    const config: Partial<ConsumerConfig> = {
      durable_name: opts.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: -1,
      ...(opts.subjects.length === 1 ? { filter_subject: opts.subjects[0] } : {}),
    };
    await this.ensureConsumer(config);
    const consumer = await this.js.consumers.get(streamName, opts.durable);
    // At least a batch's worth in flight, so a `batch.max` above 64 can be filled.
    const messages = await consumer.consume({ max_messages: Math.max(DEFAULT_MAX_BATCH, size) });
    const loop = this.deliver(messages, opts, size, batchHandlerOf(opts));
    // Logged here, with its durable, rather than as a stray rejection; stop() still throws it.
    loop.catch((err: unknown) => {
      logger.error({ durable: opts.durable, err: err instanceof Error ? err.message : String(err) }, 'event delivery stopped; this durable receives nothing until it subscribes again');
    });
    const subscription: Subscription = {
      stop: async () => {
        this.subscriptions.delete(subscription);
        await messages.close();
        await loop;
      },
    };
    this.subscriptions.add(subscription);
    logger.info({ durable: opts.durable, subjects: opts.subjects }, 'subscribed');
    return subscription;
  }

  async listen(opts: ListenOptions): Promise<Subscription> {
    const { logger } = this.settings;
    // Core NATS subscriptions: a JetStream publish is an ordinary message on its subject, so every
    // connection subscribed to it gets a copy (a shared durable would give each event to one replica).
    const subs = opts.subjects.map((subject) => this.nc.subscribe(subject));
    const loops = subs.map(async (sub) => {
      for await (const msg of sub) {
        try {
          await opts.handler(parseEnvelope(msg.string()));
        } catch (err) {
          logger.warn({ subject: msg.subject, err: (err as Error).message }, 'live event listener failed; event dropped');
        }
      }
    });
    await this.nc.flush(); // the server knows the interest before listen() returns
    const subscription: Subscription = {
      stop: async () => {
        this.subscriptions.delete(subscription);
        for (const sub of subs) sub.unsubscribe();
        await Promise.all(loops);
      },
    };
    this.subscriptions.add(subscription);
    logger.info({ subjects: opts.subjects }, 'listening');
    return subscription;
  }

  /**
   * The stream's `max_age` as it is now (another service may have changed it); Infinity when 0,
   * and while NATS cannot tell: nothing is pruned on a guess. A failing read is logged once until
   * one succeeds (an outage, or for good: a missing stream, an account without STREAM.INFO).
   */
  async historyMs(): Promise<number> {
    const attempt = this.historyReads.attempt();
    try {
      const info = await this.jsm.streams.info(this.settings.streamName);
      this.historyReads.ok(attempt);
      return info.config.max_age > 0 ? millis(info.config.max_age) : Infinity;
    } catch (err) {
      this.historyReads.fail(err);
      return Infinity;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }

  private async ensureConsumer(config: Partial<ConsumerConfig>): Promise<void> {
    const { streamName, logger } = this.settings;
    const name = config.durable_name as string;
    try {
      const info = await this.jsm.consumers.info(streamName, name);
      if ((info.config.filter_subject ?? '') !== (config.filter_subject ?? '')) {
        await this.jsm.consumers.update(streamName, name, { filter_subject: config.filter_subject ?? '' }).catch((err: Error) => {
          logger.warn({ durable: name, err: err.message }, 'could not change the durable consumer filter');
        });
      }
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    await this.jsm.consumers.add(streamName, config);
  }

  private async deliver(messages: ConsumerMessages, opts: SubscribeOptions, size: number, handler: BatchHandler): Promise<void> {
    const { logger } = this.settings;
    const batches = new MessageBatches(messages);
    try {
      for (;;) {
        const batch = await batches.take(size);
        if (batch.length === 0) return;
        const accepted: Delivery[] = [];
        for (const msg of batch) {
          let event: EventEnvelope;
          try {
            event = parseEnvelope(msg.string());
          } catch (err) {
            logger.error({ durable: opts.durable, subject: msg.subject, err: (err as Error).message }, 'dropping a message that is not an event envelope');
            msg.term();
            continue;
          }
          if (matchesAny(opts.subjects, msg.subject)) accepted.push({ msg, event });
          else msg.ack();
        }
        if (accepted.length > 0) await this.handle(accepted, opts.durable, handler);
      }
    } finally {
      // What a for-await would do on a throw (an ack or a log failing): without it the consumer's
      // close() waits for an iteration that never comes, and stop() / close() hang.
      await batches.close();
    }
  }

  private async handle(batch: Delivery[], durable: string, handler: BatchHandler): Promise<void> {
    const events = batch.map((d) => d.event);
    try {
      await handler(events);
      for (const { msg } of batch) msg.ack(); // only after the handler's work is done (and committed)
    } catch (err) {
      const attempt = Math.max(...batch.map(({ msg }) => msg.info.deliveryCount));
      const delay = retryDelayMs(attempt, 200, 30_000);
      const fields = deliveryFailureFields(durable, events, attempt, delay, err);
      this.settings.logger.warn(fields, 'event handler failed; redelivery scheduled');
      for (const { msg } of batch) msg.nak(delay);
    }
  }
}

interface Delivery {
  msg: JsMsg;
  event: EventEnvelope;
}

const NOT_YET = Symbol('not yet');
const nextTurn = () => new Promise<typeof NOT_YET>((resolve) => setImmediate(resolve, NOT_YET));

/**
 * A consumer's messages in batches: wait for one, then add those already received, up to `max`.
 * "Already received" is decided by racing the iterator against the next event-loop turn, not by
 * the iterator's pending count, which can count callbacks that are not messages: a batch never
 * waits for a message that has not arrived. A message that arrives after the race is kept for
 * the next batch. Exported for its unit test only.
 */
export class MessageBatches {
  private readonly iterator: AsyncIterator<JsMsg>;
  private ahead: Promise<IteratorResult<JsMsg>> | null = null;
  private ended = false;

  constructor(messages: AsyncIterable<JsMsg>) {
    this.iterator = messages[Symbol.asyncIterator]();
  }

  /** The next batch; empty once the messages end (the subscription stopped). */
  async take(max: number): Promise<JsMsg[]> {
    if (this.ended) return [];
    const first = await this.next();
    if (first.done) return this.end([]);
    const batch = [first.value];
    // One turn for the whole batch: what the client holds resolves in microtasks, before it.
    const turn = max > 1 ? nextTurn() : null;
    while (turn && batch.length < max) {
      const pending = this.next();
      const result = await Promise.race([pending, turn]);
      if (result === NOT_YET) {
        this.ahead = pending;
        break;
      }
      if (result.done) return this.end(batch);
      batch.push(result.value);
    }
    return batch;
  }

  /**
   * Ends the iterator, as a for-await loop does when its body throws: the consumer stops pulling
   * and its close() resolves. A read still pending (`ahead`) holds the iterator's return() back
   * until it settles, so then return() is not awaited (that could be for ever), and a message
   * that read brings is nak'd: nobody will handle it, and it is redelivered now instead of after
   * the ack wait.
   */
  async close(): Promise<void> {
    this.ended = true;
    const ahead = this.ahead;
    this.ahead = null;
    const returned = Promise.resolve(this.iterator.return?.()).then(
      () => undefined,
      () => undefined,
    );
    if (ahead === null) return returned;
    ahead
      .then((result) => {
        if (!result.done) result.value.nak();
      })
      .catch(() => undefined);
  }

  private next(): Promise<IteratorResult<JsMsg>> {
    const next = this.ahead ?? this.iterator.next();
    this.ahead = null;
    return next;
  }

  private end(batch: JsMsg[]): JsMsg[] {
    this.ended = true;
    return batch;
  }
}
