import type { EventEnvelope } from './envelope';

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface SubscribeOptions {
  /** Durable name: the bus remembers what this consumer has processed across subscribe/stop. */
  durable: string;
  /** NATS subject patterns (`exchange.identity.agent.*`, `exchange.>`). */
  subjects: string[];
  /** Resolving acknowledges the event; throwing redelivers it later with backoff. */
  handler: EventHandler;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface EventBus {
  publish(event: EventEnvelope): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
  readonly kind: 'nats' | 'in-process';
}
