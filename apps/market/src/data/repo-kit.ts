import { encodeCursor, type CursorKey } from '@exchange/platform';
import type { Queryable } from '@exchange/db';

export type { Queryable } from '@exchange/db';

// What the area repositories (src/<area>/*.repo.ts) share. Rows map to domain objects in those
// repositories and nowhere else; BIGINT comes back from pg as a string and becomes a bigint. Lists
// are ordered (created_at DESC, id DESC) and fetched with LIMIT limit + 1 (page).

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Row = Record<string, any>;

export const big = (v: unknown): bigint => BigInt(v as string);
export const bigOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(v as string));

export interface PageQuery {
  limit: number;
  after: CursorKey | null;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * A keyset page over `table` with the given equality filters (column → value, undefined = no
 * filter) and an optional extra condition; idColumn is the tie-breaker.
 */
export async function page<T>(
  db: Queryable,
  table: string,
  filters: Record<string, unknown>,
  q: PageQuery,
  map: (r: Row) => T,
  keyOf: (r: Row) => CursorKey,
  opts: { idColumn?: string; extra?: { sql: (param: (v: unknown) => string) => string } } = {},
): Promise<Page<T>> {
  const idColumn = opts.idColumn ?? 'id';
  const values: unknown[] = [];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const where: string[] = [];
  for (const [column, value] of Object.entries(filters)) if (value !== undefined) where.push(`${column} = ${param(value)}`);
  if (opts.extra) where.push(opts.extra.sql(param));
  if (q.after) where.push(`(created_at, ${idColumn}) < (${param(q.after.createdAt)}, ${param(q.after.id)})`);
  const sql = `SELECT * FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, ${idColumn} DESC LIMIT ${param(q.limit + 1)}`;
  const { rows } = await db.query(sql, values);
  if (rows.length <= q.limit) return { data: rows.map(map), nextCursor: null };
  const kept = rows.slice(0, q.limit);
  return { data: kept.map(map), nextCursor: encodeCursor(keyOf(kept[kept.length - 1])) };
}

export const key = (r: Row): CursorKey => ({ createdAt: r.created_at, id: r.id });
