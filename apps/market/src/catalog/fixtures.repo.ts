import { encodeCursor } from '@exchange/platform';
import type { Queryable } from '@exchange/db';
import type { Page, PageQuery } from '../data/repo-kit';
import type { Fixture, FixtureFilter, FixtureSeller } from './model';
import { encodeSellerCursor, type SellerRankKey } from './seller-cursor';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Row = Record<string, any>;

const toFixture = (r: Row): Fixture => ({
  fixtureId: r.fixture_id,
  type: r.type,
  evidenceTier: r.evidence_tier,
  determinismClass: r.determinism_class,
  spec: r.spec,
  objectId: r.object_id,
  signerAgentId: r.signer_agent_id,
  tags: r.tags,
  createdAt: r.created_at,
});

/** Inserts the fixture unless its fixture_id (or object) is indexed already: the first one wins. */
export async function insertFixture(db: Queryable, f: Fixture): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO fixtures (fixture_id, object_id, type, evidence_tier, determinism_class, spec, signer_agent_id, tags, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9) ON CONFLICT DO NOTHING`,
    [f.fixtureId, f.objectId, f.type, f.evidenceTier, f.determinismClass, JSON.stringify(f.spec), f.signerAgentId, f.tags, f.createdAt],
  );
  return rowCount === 1;
}

export async function getFixture(db: Queryable, fixtureId: string): Promise<Fixture | null> {
  const { rows } = await db.query('SELECT * FROM fixtures WHERE fixture_id = $1', [fixtureId]);
  return rows[0] ? toFixture(rows[0]) : null;
}

/** SQL conditions of the four filters on the fixtures table aliased `alias`. */
function filterSql(filter: FixtureFilter, alias: string, param: (v: unknown) => string): string[] {
  const where: string[] = [];
  if (filter.fixtureId !== undefined) where.push(`${alias}.fixture_id = ${param(filter.fixtureId)}`);
  if (filter.type !== undefined) where.push(`${alias}.type = ${param(filter.type)}`);
  if (filter.evidenceTier !== undefined) where.push(`${alias}.evidence_tier = ${param(filter.evidenceTier)}`);
  if (filter.determinismClass !== undefined) where.push(`${alias}.determinism_class = ${param(filter.determinismClass)}`);
  return where;
}

function params(): { values: unknown[]; param: (v: unknown) => string } {
  const values: unknown[] = [];
  return {
    values,
    param: (v) => {
      values.push(v);
      return `$${values.length}`;
    },
  };
}

/** Newest first: (created_at DESC, fixture_id DESC), the platform cursor over that key. */
export async function listFixtures(db: Queryable, filter: FixtureFilter, q: PageQuery): Promise<Page<Fixture>> {
  const { values, param } = params();
  const where = filterSql(filter, 'f', param);
  if (q.after) where.push(`(f.created_at, f.fixture_id) < (${param(q.after.createdAt)}, ${param(q.after.id)})`);
  const { rows } = await db.query(
    `SELECT f.* FROM fixtures f${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
     ORDER BY f.created_at DESC, f.fixture_id DESC LIMIT ${param(q.limit + 1)}`,
    values,
  );
  if (rows.length <= q.limit) return { data: rows.map(toFixture), nextCursor: null };
  const kept = rows.slice(0, q.limit);
  const last = kept[kept.length - 1];
  return { data: kept.map(toFixture), nextCursor: encodeCursor({ createdAt: last.created_at, id: last.fixture_id }) };
}

/**
 * Sellers with at least one passed verification report on a contract naming a fixture (matching
 * the filter), ranked by passes desc, latest pass desc, seller_id asc. The seller of a report is
 * the seller of the result it judged.
 */
export async function listFixtureSellers(
  db: Queryable,
  filter: FixtureFilter,
  q: { limit: number; after: SellerRankKey | null },
): Promise<Page<FixtureSeller>> {
  const { values, param } = params();
  const where = ['c.fixture_id IS NOT NULL', ...filterSql(filter, 'f', param)];
  let after = '';
  if (q.after) {
    const p = param(q.after.passed);
    const t = param(q.after.lastPassedAt);
    after = ` AND (passed < ${p} OR (passed = ${p} AND last_passed_at < ${t}) OR (passed = ${p} AND last_passed_at = ${t} AND seller_id > ${param(q.after.sellerId)}))`;
  }
  const { rows } = await db.query(
    `WITH ranked AS (
       SELECT r.seller_id,
              (count(*) FILTER (WHERE v.verdict = 'pass'))::int AS passed,
              (count(*) FILTER (WHERE v.verdict = 'fail'))::int AS failed,
              array_agg(DISTINCT c.fixture_id ORDER BY c.fixture_id) FILTER (WHERE v.verdict = 'pass') AS fixture_ids,
              max(v.created_at) FILTER (WHERE v.verdict = 'pass') AS last_passed_at
         FROM verification_reports v
         JOIN results r ON r.id = v.result_id
         JOIN contracts c ON c.id = v.contract_id
         JOIN fixtures f ON f.fixture_id = c.fixture_id
        WHERE ${where.join(' AND ')}
        GROUP BY r.seller_id)
     SELECT * FROM ranked WHERE passed > 0${after}
     ORDER BY passed DESC, last_passed_at DESC, seller_id ASC LIMIT ${param(q.limit + 1)}`,
    values,
  );
  const toSeller = (r: Row): FixtureSeller => ({
    sellerId: r.seller_id,
    passedVerifications: r.passed,
    failedVerifications: r.failed,
    fixtureIds: r.fixture_ids ?? [],
    lastPassedAt: r.last_passed_at,
  });
  if (rows.length <= q.limit) return { data: rows.map(toSeller), nextCursor: null };
  const kept = rows.slice(0, q.limit).map(toSeller);
  const last = kept[kept.length - 1];
  return { data: kept, nextCursor: encodeSellerCursor({ passed: last.passedVerifications, lastPassedAt: last.lastPassedAt, sellerId: last.sellerId }) };
}
