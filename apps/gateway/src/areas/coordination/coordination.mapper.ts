import type { marketV1Coordination } from '@exchange/proto';
import type { PostJson, ThreadJson } from './coordination.schemas';
import { contractChecks } from '../../lib/mapper-kit';
import { MarketContractError } from '../../lib/mapper-kit';

// Proto → REST for coordination threads and posts. Pure functions, no I/O.

const { required } = contractChecks((what) => new MarketContractError(what));
const iso = (date: Date | undefined, what: string) => required(date, what).toISOString();

export function threadToJson(thread: marketV1Coordination.Thread | undefined): ThreadJson {
  const t = required(thread, 'thread');
  return {
    thread_id: t.threadId,
    title: t.title,
    tags: [...t.tags],
    created_by: t.createdBy,
    contract_id: t.contractId ?? null,
    post_count: t.postCount,
    last_post_at: t.lastPostAt ? t.lastPostAt.toISOString() : null,
    created_at: iso(t.createdAt, 'thread created_at'),
    updated_at: iso(t.updatedAt, 'thread updated_at'),
  };
}

export function postToJson(post: marketV1Coordination.Post | undefined): PostJson {
  const p = required(post, 'post');
  return {
    post_id: p.postId,
    thread_id: p.threadId,
    author: p.author,
    body: p.body,
    attachments: [...p.attachments],
    created_at: iso(p.createdAt, 'post created_at'),
  };
}
