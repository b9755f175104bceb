import { idempotentConsumer, type EventBus, type EventEnvelope, type Subscription } from '@exchange/events';
import { parseAmount, type Logger } from '@exchange/platform';
import { marketV1Events, marketV1Wire } from '@exchange/proto';
import type pg from 'pg';
import type { ContractStatus } from '../domain/model';
import { parseShardLabels, type ShardLabels } from '../domain/shard-contract';
import type { ContractFacts } from '../domain/task-mirror';
import { noFollowUp, type FollowUp, type RunEngine } from '../runs/run-engine.service';
import { marketPort } from '../clients/market.client';
import type { MarketClient } from '../clients/clients';

// The market's contract events, consumed by a durable JetStream consumer (at least once): each
// event takes effect once (processed_events, in the transaction of the change), our contracts are
// recognised by their labels (an event may come before the CreateContract answer was stored), and
// the market calls a change leads to (next stage's postings, cancels) run after the commit.

export const MARKET_CONSUMER = 'workflows-market';
export const CONTRACT_SUBJECTS = ['exchange.market.contract.*'];

const PREFIX = 'exchange.market.contract.';

/** Our shard contract's labels and facts in a market contract event; null for anything else. */
export function contractFromEvent(event: EventEnvelope): { labels: ShardLabels; facts: ContractFacts } | null {
  if (!event.type.startsWith(PREFIX)) return null;
  const contract = marketV1Events.ContractChanged.fromJSON(event.data).contract;
  if (!contract) return null;
  const labels = parseShardLabels(contract.labels);
  const status = marketV1Wire.contractStatus.toWire(contract.status) as ContractStatus | undefined;
  if (labels === null || status === undefined || contract.contractId === '') return null;
  return {
    labels,
    facts: {
      verb: event.type.slice(PREFIX.length),
      contractId: contract.contractId,
      status,
      sellerId: contract.sellerId ?? null,
      price: contract.price?.amount ? parseAmount(contract.price.amount) : null,
    },
  };
}

export interface MarketConsumerOptions {
  bus: EventBus;
  pool: pg.Pool;
  market: MarketClient;
  engine: RunEngine;
  logger: Logger;
  /** Durable name (default workflows-market; tests sharing a NATS server pass their own). */
  durable?: string;
}

export function startMarketConsumer(opts: MarketConsumerOptions): Promise<Subscription> {
  const durable = opts.durable ?? MARKET_CONSUMER;
  const market = marketPort(opts.market);
  return opts.bus.subscribe({
    durable,
    subjects: CONTRACT_SUBJECTS,
    handler: async (event) => {
      const ours = contractFromEvent(event);
      if (ours === null) return;
      let follow: FollowUp = noFollowUp();
      // One wrapper per event: the follow-up of this event's transaction is this event's.
      await idempotentConsumer(opts.pool, durable, async (_e, client) => {
        follow = await opts.engine.applyContract(client, ours.labels, ours.facts, () => market.results(ours.facts.contractId));
      })(event);
      await opts.engine.followUp(follow);
    },
  });
}
