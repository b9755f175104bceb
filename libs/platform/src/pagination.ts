import { errors } from './errors';

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 200;

/** The sort key of the last row on a page: lists are ordered (created_at DESC, id DESC). */
export interface CursorKey {
  createdAt: Date;
  id: string;
}

/** Opaque cursor: base64url of `<created_at ISO>|<id>`. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(`${key.createdAt.toISOString()}|${key.id}`, 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function decodeCursor(cursor: string): CursorKey {
  const invalid = () => errors.invalidArgument('invalid_cursor', 'cursor is not valid');
  if (!BASE64URL.test(cursor) || cursor.length > 1024) throw invalid();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const sep = text.indexOf('|');
  if (sep < 0) throw invalid();
  const iso = text.slice(0, sep);
  const id = text.slice(sep + 1);
  const createdAt = new Date(iso);
  // Re-encoding must give back the same string, which rejects lookalikes and trailing garbage.
  if (!ISO_UTC.test(iso) || Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== iso || id === '') {
    throw invalid();
  }
  const key = { createdAt, id };
  if (encodeCursor(key) !== cursor) throw invalid();
  return key;
}

/** `limit` from a request: missing or 0 → default; outside 1..200 or not an integer → invalid_limit. */
export function resolveLimit(limit: number | undefined | null): number {
  if (limit === undefined || limit === null || limit === 0) return PAGE_LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < PAGE_LIMIT_MIN || limit > PAGE_LIMIT_MAX) {
    throw errors.invalidArgument('invalid_limit', `limit must be an integer from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}`, {
      limit,
    });
  }
  return limit;
}

/**
 * Builds a page from rows fetched with `LIMIT limit + 1`: the extra row only proves that a next
 * page exists; the cursor points at the last row returned.
 */
export function toPage<T>(
  rowsFetched: T[],
  limit: number,
  keyOf: (row: T) => CursorKey,
): { data: T[]; nextCursor: string | null } {
  if (rowsFetched.length <= limit) return { data: rowsFetched, nextCursor: null };
  const data = rowsFetched.slice(0, limit);
  return { data, nextCursor: encodeCursor(keyOf(data[data.length - 1])) };
}
