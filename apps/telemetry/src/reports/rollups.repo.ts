import type { Queryable } from '@exchange/db';
import type { PurchaseGroup } from './rollup-math';
import type { Span } from './span';
import { spanWhere } from './span-sql.repo';

// The rollups' reads beyond plain counts of event types (span-sql.repo.ts countEventTypes).

/** The integrity state (proto JSON name) after the last state change by `asOf`; null when none. */
export async function integrityStateAt(db: Queryable, asOf: Date): Promise<string | null> {
  const { rows } = await db.query<{ state: string | null }>(
    `SELECT data->'integrity'->>'state' AS state FROM events
      WHERE type = 'exchange.market.integrity.state_changed' AND occurred_at <= $1
      ORDER BY occurred_at DESC, seq DESC LIMIT 1`,
    [asOf],
  );
  return rows[0]?.state ?? null;
}

/**
 * Distinct contracts awarded in the span, and how many of them had a dispute opened by `asOf`:
 * the dispute rate's two sides, so it is a share of contracts (0 to 1). Counting disputes opened
 * in the span over awards in the span mixed contracts awarded before it (their disputes) with
 * those awarded in it, and went past 1.
 */
export async function awardedAndDisputed(db: Queryable, span: Span, asOf: Date): Promise<{ awarded: number; disputed: number }> {
  const params: unknown[] = [asOf];
  const { rows } = await db.query<{ awarded: number; disputed: number }>(
    `SELECT count(*)::int AS awarded, count(*) FILTER (WHERE disputed)::int AS disputed
       FROM (SELECT DISTINCT a.contract_id,
                    EXISTS (SELECT 1 FROM events d
                             WHERE d.contract_id = a.contract_id AND d.type = 'exchange.market.dispute.opened' AND d.occurred_at <= $1) AS disputed
               FROM events a
              WHERE a.type = 'exchange.market.contract.awarded' AND a.contract_id IS NOT NULL AND ${spanWhere('a.occurred_at', span, params)}) awarded`,
    params,
  );
  return rows[0];
}

/** Purchases completed in the span, grouped by merchant, currency and origin. */
export async function purchaseGroups(db: Queryable, span: Span): Promise<PurchaseGroup[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ merchant_domain: string; currency: string; origin: PurchaseGroup['origin']; n: number; amount: string }>(
    `SELECT merchant_domain, currency,
            CASE WHEN origin_workflow_run_id IS NOT NULL THEN 'workflow' WHEN origin_contract_id IS NOT NULL THEN 'contract' ELSE 'none' END AS origin,
            count(*)::int AS n, sum(amount)::text AS amount
       FROM purchase_facts WHERE ${spanWhere('completed_at', span, params)}
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    params,
  );
  return rows.map((r) => ({ merchantDomain: r.merchant_domain, currency: r.currency, origin: r.origin, purchases: r.n, amount: BigInt(r.amount) }));
}

/**
 * Distinct contracts with a thread created in the span, and distinct post authors — operator
 * data: a private buyer's blanked author is its `restricted.buyer_id`.
 */
export async function coordinationDistincts(db: Queryable, span: Span): Promise<{ contractsWithThreads: number; participants: number }> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ contracts: number; participants: number }>(
    `SELECT count(DISTINCT data->'thread'->>'contractId') FILTER (WHERE type = 'exchange.market.thread.created')::int AS contracts,
            count(DISTINCT coalesce(nullif(data->'post'->>'author', ''), data->'restricted'->>'buyerId'))
              FILTER (WHERE type = 'exchange.market.post.created')::int AS participants
       FROM events
      WHERE type IN ('exchange.market.thread.created', 'exchange.market.post.created') AND ${spanWhere('occurred_at', span, params)}`,
    params,
  );
  return { contractsWithThreads: rows[0].contracts, participants: rows[0].participants };
}

export interface CompletedRun {
  run: { createdAt?: string; completedAt?: string; stages?: Array<{ startedAt?: string }> };
  occurredAt: Date;
}

/** The runs completed in the span (run.completed's run, JSON form). */
export async function completedRuns(db: Queryable, span: Span): Promise<CompletedRun[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ run: CompletedRun['run'] | null; occurred_at: Date }>(
    `SELECT data->'run' AS run, occurred_at FROM events
      WHERE type = 'exchange.workflows.run.completed' AND ${spanWhere('occurred_at', span, params)}`,
    params,
  );
  return rows.map((r) => ({ run: r.run ?? {}, occurredAt: r.occurred_at }));
}
