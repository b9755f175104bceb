import { decodeCursor, errors, resolveLimit } from '@exchange/platform';
import type pg from 'pg';
import { withTransaction } from '@exchange/db';
import type { PageQuery } from '../data/repo-kit';
import type { TxDeps } from './runtime';

/** 404 `<entity>_not_found`; an empty id is named "(empty)" so the message stays readable. */
export const notFound = (entity: string, id: string) => errors.notFound(entity, id || '(empty)');

/** The page a list request carries (proto's PageRequest, structurally). */
export interface PageRequest {
  limit?: number;
  cursor?: string;
}

export function pageQuery(page: PageRequest | undefined): PageQuery {
  return { limit: resolveLimit(page?.limit), after: page?.cursor ? decodeCursor(page.cursor) : null };
}

/** One transaction, then a nudge to the outbox relay so its events go out at once. */
export async function inTransaction<T>(ctx: TxDeps, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const result = await withTransaction(ctx.pool, fn);
  ctx.notify();
  return result;
}
