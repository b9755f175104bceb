import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { marketV1Events, type marketV1Coordination } from '@exchange/proto';
import type pg from 'pg';
import type { Caller } from '../domain/caller';
import { MARKET_EVENT_SOURCE } from '../events/market.events';
import type { Post, Thread } from './thread';

// Outbox writers of coordination: call them inside the transaction of the change.

async function emit(client: pg.ClientBase, type: string, subjectId: string, data: unknown, caller: Caller): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({ type: `exchange.market.${type}`, source: MARKET_EVENT_SOURCE, subjectId, actor: caller.actor, traceId: caller.traceId, data }),
  );
}

export const coordinationEvents = {
  /** exchange.market.thread.created */
  thread: (client: pg.ClientBase, t: Thread, caller: Caller) =>
    emit(client, 'thread.created', t.threadId, marketV1Events.ThreadCreated.toJSON({ thread: toProtoThread(t) }), caller),
  /** exchange.market.post.created */
  post: (client: pg.ClientBase, p: Post, caller: Caller) =>
    emit(client, 'post.created', p.postId, marketV1Events.PostCreated.toJSON({ post: toProtoPost(p) }), caller),
};

// domain → proto, shared with the gRPC answers (coordination.mapper).
export function toProtoThread(t: Thread): marketV1Coordination.Thread {
  return {
    threadId: t.threadId,
    title: t.title,
    tags: t.tags,
    createdBy: t.createdBy,
    contractId: t.contractId ?? undefined,
    postCount: t.postCount,
    lastPostAt: t.lastPostAt ?? undefined,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export function toProtoPost(p: Post): marketV1Coordination.Post {
  return { postId: p.postId, threadId: p.threadId, author: p.author, body: p.body, attachments: p.attachments, createdAt: p.createdAt };
}
