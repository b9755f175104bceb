import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import type pg from 'pg';
import type { Caller } from '../domain/caller';
import { MARKET_EVENT_SOURCE } from '../events/market.events';
import { postEvent, threadEvent, type BuyerPrivacy } from '../events/public-part';
import type { Post, Thread } from './thread';

// Outbox writers of coordination: call them inside the transaction of the change. `contract` is
// the thread's contract (null for a thread without one): a private buyer stays out of the public part.

async function emit(client: pg.ClientBase, type: string, subjectId: string, data: unknown, caller: Caller): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({ type: `exchange.market.${type}`, source: MARKET_EVENT_SOURCE, subjectId, actor: caller.actor, traceId: caller.traceId, data }),
  );
}

export const coordinationEvents = {
  /** exchange.market.thread.created */
  thread: (client: pg.ClientBase, t: Thread, contract: BuyerPrivacy | null, caller: Caller) =>
    emit(client, 'thread.created', t.threadId, threadEvent(t, contract), caller),
  /** exchange.market.post.created */
  post: (client: pg.ClientBase, p: Post, contract: BuyerPrivacy | null, caller: Caller) =>
    emit(client, 'post.created', p.postId, postEvent(p, contract), caller),
};
