import { encodeCursor, type CursorKey } from '@exchange/platform';
import type { Queryable } from '@exchange/db';
import type { Page, PageQuery } from '../data/repo-kit';
import type { Post, Thread } from './thread';

// SQL of threads and posts. Threads newest first; posts oldest first (conversation order).

/* eslint-disable @typescript-eslint/no-explicit-any */
type Row = Record<string, any>;

const toThread = (r: Row): Thread => ({
  threadId: r.id,
  title: r.title,
  tags: r.tags ?? [],
  createdBy: r.created_by,
  contractId: r.contract_id,
  postCount: r.post_count,
  lastPostAt: r.last_post_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toPost = (r: Row): Post => ({
  postId: r.id,
  threadId: r.thread_id,
  author: r.author,
  body: r.body,
  attachments: r.attachments ?? [],
  createdAt: r.created_at,
});

function params() {
  const values: unknown[] = [];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  return { values, param };
}

function toPage<T>(rows: Row[], q: PageQuery, map: (r: Row) => T): Page<T> {
  if (rows.length <= q.limit) return { data: rows.map(map), nextCursor: null };
  const kept = rows.slice(0, q.limit);
  const last = kept[kept.length - 1] as Row;
  const key: CursorKey = { createdAt: last.created_at, id: last.id };
  return { data: kept.map(map), nextCursor: encodeCursor(key) };
}

export async function insertThread(db: Queryable, t: Thread): Promise<void> {
  await db.query(
    `INSERT INTO threads (id, title, tags, created_by, contract_id, post_count, last_post_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [t.threadId, t.title, t.tags, t.createdBy, t.contractId, t.postCount, t.lastPostAt, t.createdAt, t.updatedAt],
  );
}

export async function getThread(db: Queryable, id: string): Promise<Thread | null> {
  const { rows } = await db.query('SELECT * FROM threads WHERE id = $1', [id]);
  return rows[0] ? toThread(rows[0]) : null;
}

/** The thread row locked until the transaction ends (post_count stays exact under concurrent posts). */
export async function lockThread(db: Queryable, id: string): Promise<Thread | null> {
  const { rows } = await db.query('SELECT * FROM threads WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ? toThread(rows[0]) : null;
}

export async function recordPost(db: Queryable, threadId: string, at: Date): Promise<void> {
  await db.query('UPDATE threads SET post_count = post_count + 1, last_post_at = $2, updated_at = $2 WHERE id = $1', [threadId, at]);
}

/**
 * Threads newest first. `viewer`: undefined = every thread (operator); null = open threads only;
 * an agent id = open threads and those bound to a contract it is a party of.
 */
export async function listThreads(
  db: Queryable,
  filters: { tag?: string; createdBy?: string; contractId?: string; viewer: string | null | undefined },
  q: PageQuery,
): Promise<Page<Thread>> {
  const { values, param } = params();
  const where: string[] = [];
  if (filters.tag !== undefined) where.push(`tags @> ARRAY[${param(filters.tag)}]::text[]`);
  if (filters.createdBy !== undefined) where.push(`created_by = ${param(filters.createdBy)}`);
  if (filters.contractId !== undefined) where.push(`contract_id = ${param(filters.contractId)}`);
  if (filters.viewer === null) where.push('contract_id IS NULL');
  else if (filters.viewer !== undefined) {
    const v = param(filters.viewer);
    where.push(
      `(contract_id IS NULL OR contract_id IN (SELECT id FROM contracts WHERE buyer_id = ${v} OR seller_id = ${v} OR verifier_id = ${v}))`,
    );
  }
  if (q.after) where.push(`(created_at, id) < (${param(q.after.createdAt)}, ${param(q.after.id)})`);
  const sql = `SELECT * FROM threads${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ${param(q.limit + 1)}`;
  const { rows } = await db.query(sql, values);
  return toPage(rows, q, toThread);
}

export async function insertPost(db: Queryable, p: Post): Promise<void> {
  await db.query('INSERT INTO posts (id, thread_id, author, body, attachments, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    p.postId,
    p.threadId,
    p.author,
    p.body,
    p.attachments,
    p.createdAt,
  ]);
}

/** A thread's posts oldest first; `attachment` uses the GIN index on attachments. */
export async function listPosts(db: Queryable, threadId: string, filters: { author?: string; attachment?: string }, q: PageQuery): Promise<Page<Post>> {
  const { values, param } = params();
  const where = [`thread_id = ${param(threadId)}`];
  if (filters.author !== undefined) where.push(`author = ${param(filters.author)}`);
  if (filters.attachment !== undefined) where.push(`attachments @> ARRAY[${param(filters.attachment)}]::text[]`);
  if (q.after) where.push(`(created_at, id) > (${param(q.after.createdAt)}, ${param(q.after.id)})`);
  const sql = `SELECT * FROM posts WHERE ${where.join(' AND ')} ORDER BY created_at ASC, id ASC LIMIT ${param(q.limit + 1)}`;
  const { rows } = await db.query(sql, values);
  return toPage(rows, q, toPost);
}
