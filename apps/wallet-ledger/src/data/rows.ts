import { decodeCursor, type CursorKey } from '@exchange/platform';

// Row helpers shared by the area repositories (plain node-postgres rows: BIGINT arrives as a
// string, timestamptz as a Date).

export type Row = Record<string, unknown>;
export const big = (v: unknown) => BigInt(v as string);
export const bigOrNull = (v: unknown) => (v === null ? null : BigInt(v as string));
export const str = (v: unknown) => v as string;
export const strOrNull = (v: unknown) => (v === null ? null : (v as string));
export const date = (v: unknown) => v as Date;

/** Keyset page query: newest first by (created_at, id), LIMIT limit + 1 (toPage drops the extra). */
export function pageClause(idColumn: string, cursor: string | undefined, firstParam: number): { sql: string; params: unknown[] } {
  if (!cursor) return { sql: '', params: [] };
  const key: CursorKey = decodeCursor(cursor);
  return { sql: ` AND (created_at, ${idColumn}) < ($${firstParam}, $${firstParam + 1})`, params: [key.createdAt, key.id] };
}
