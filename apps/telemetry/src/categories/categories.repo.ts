import type pg from 'pg';
import type { CategoryKind } from '../domain/facts';
import type { Category, CategoryObject, ObjectKey } from './category-rules';

// Reads of category_objects (written by ingest): per-tag counts and the objects of one tag.

interface CategoryRow {
  tag: string;
  object_count: number;
  contract_count: number;
  listing_count: number;
  first_seen_at: Date;
  last_seen_at: Date;
}

const toCategory = (r: CategoryRow): Category => ({
  tag: r.tag,
  objectCount: r.object_count,
  contractCount: r.contract_count,
  listingCount: r.listing_count,
  firstSeenAt: r.first_seen_at,
  lastSeenAt: r.last_seen_at,
});

const COUNTS = `tag, count(*)::int AS object_count,
  (count(*) FILTER (WHERE kind = 'contract'))::int AS contract_count,
  (count(*) FILTER (WHERE kind = 'listing'))::int AS listing_count,
  min(first_seen_at) AS first_seen_at, max(first_seen_at) AS last_seen_at`;

/** Tags after `after` in order, at most `fetch` of them. */
export async function listCategories(db: Pick<pg.Pool, 'query'>, after: string | null, fetch: number): Promise<Category[]> {
  const { rows } = await db.query<CategoryRow>(
    `SELECT ${COUNTS} FROM category_objects WHERE $1::text IS NULL OR tag > $1 GROUP BY tag ORDER BY tag LIMIT $2`,
    [after, fetch],
  );
  return rows.map(toCategory);
}

export async function getCategory(db: Pick<pg.Pool, 'query'>, tag: string): Promise<Category | null> {
  const { rows } = await db.query<CategoryRow>(`SELECT ${COUNTS} FROM category_objects WHERE tag = $1 GROUP BY tag`, [tag]);
  return rows[0] ? toCategory(rows[0]) : null;
}

interface ObjectRow {
  tag: string;
  kind: CategoryKind;
  object_id: string;
  title: string;
  sandbox: boolean;
  first_seen_at: Date;
}

/** The tag's objects, newest first, after `after`, at most `fetch`. */
export async function listCategoryObjects(
  db: Pick<pg.Pool, 'query'>,
  tag: string,
  kind: CategoryKind | undefined,
  after: ObjectKey | null,
  fetch: number,
): Promise<CategoryObject[]> {
  const { rows } = await db.query<ObjectRow>(
    `SELECT tag, kind, object_id, title, sandbox, first_seen_at FROM category_objects
     WHERE tag = $1 AND ($2::text IS NULL OR kind = $2)
       AND ($3::timestamptz IS NULL OR (first_seen_at, kind || ':' || object_id) < ($3, $4::text))
     ORDER BY first_seen_at DESC, kind || ':' || object_id DESC LIMIT $5`,
    [tag, kind ?? null, after?.firstSeenAt ?? null, after?.ref ?? null, fetch],
  );
  return rows.map((r) => ({ tag: r.tag, kind: r.kind, objectId: r.object_id, title: r.title, sandbox: r.sandbox, firstSeenAt: r.first_seen_at }));
}
