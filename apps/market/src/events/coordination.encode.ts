import type { marketV1Coordination } from '@exchange/proto';
import type { Post, Thread } from '../coordination/thread';

// Thread and post, domain → proto, shared by the outbox events and the gRPC answers
// (coordination.mapper).

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
