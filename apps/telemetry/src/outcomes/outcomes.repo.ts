import type { Queryable } from '@exchange/db';
import type { RollupRange } from '../domain/window';
import type { CheckoutTally, ContractTally } from './outcome-rules';

// Outcome metrics from the facts: contracts and checkouts that ended in the window (ended_at ∈
// (from, as_of]), purchases completed in it.

const MS = (a: string, b: string) => `round(extract(epoch FROM ${a} - ${b}) * 1000)::bigint`;

function within(column: string, range: RollupRange, params: unknown[]): string {
  params.push(range.from, range.asOf);
  return `(${column} > $${params.length - 1} OR $${params.length - 1}::timestamptz IS NULL) AND ${column} <= $${params.length}`;
}

/** Terminal contracts (settled, refunded, split, cancelled, expired) of the window, optionally of one party. */
export async function contractTally(db: Queryable, range: RollupRange, agentId: string | undefined): Promise<ContractTally> {
  const params: unknown[] = [];
  const where = within('ended_at', range, params);
  params.push(agentId ?? null);
  const agent = `($${params.length}::text IS NULL OR buyer_id = $${params.length} OR seller_id = $${params.length})`;
  const { rows } = await db.query<{ settled: number; refunded: number; split: number; cancelled: number; expired: number; disputed: number; settle_ms: string[] }>(
    `SELECT count(*) FILTER (WHERE status = 'settled')::int AS settled,
            count(*) FILTER (WHERE status = 'refunded')::int AS refunded,
            count(*) FILTER (WHERE status = 'split')::int AS split,
            count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled,
            count(*) FILTER (WHERE status = 'expired')::int AS expired,
            count(*) FILTER (WHERE ever_disputed)::int AS disputed,
            coalesce(array_agg(${MS('coalesce(settled_at, ended_at)', 'created_at')}) FILTER (WHERE status = 'settled'), '{}')::text[] AS settle_ms
       FROM contract_facts
      WHERE status IN ('settled', 'refunded', 'split', 'cancelled', 'expired') AND ${where} AND ${agent}`,
    params,
  );
  const r = rows[0];
  return { ...r, settleMs: r.settle_ms.map(Number) };
}

/** Checkouts that ended in the window, and purchases completed in it, optionally at one merchant and/or of one buyer. */
export async function checkoutTally(db: Queryable, range: RollupRange, merchantId: string | undefined, agentId: string | undefined): Promise<CheckoutTally> {
  const params: unknown[] = [];
  const where = within('ended_at', range, params);
  params.push(merchantId ?? null, agentId ?? null);
  const who = `($${params.length - 1}::text IS NULL OR merchant_domain = $${params.length - 1}) AND ($${params.length}::text IS NULL OR buyer_agent_id = $${params.length})`;
  const { rows } = await db.query<{ completed: number; canceled: number; failed: number; complete_ms: string[] }>(
    `SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed,
            count(*) FILTER (WHERE status = 'canceled')::int AS canceled,
            count(*) FILTER (WHERE status NOT IN ('completed', 'canceled'))::int AS failed,
            coalesce(array_agg(${MS('ended_at', 'created_at')}) FILTER (WHERE status = 'completed'), '{}')::text[] AS complete_ms
       FROM checkout_facts WHERE ended_at IS NOT NULL AND ${where} AND ${who}`,
    params,
  );
  const volumeParams: unknown[] = [];
  const volumeWhere = within('completed_at', range, volumeParams);
  volumeParams.push(merchantId ?? null, agentId ?? null);
  const volume = await db.query<{ currency: string; amount: string }>(
    `SELECT currency, sum(amount)::text AS amount FROM purchase_facts
      WHERE ${volumeWhere} AND ($${volumeParams.length - 1}::text IS NULL OR merchant_domain = $${volumeParams.length - 1})
        AND ($${volumeParams.length}::text IS NULL OR buyer_agent_id = $${volumeParams.length})
      GROUP BY currency ORDER BY currency`,
    volumeParams,
  );
  const r = rows[0];
  return {
    completed: r.completed,
    canceled: r.canceled,
    failed: r.failed,
    completeMs: r.complete_ms.map(Number),
    volume: volume.rows.map((v) => ({ currency: v.currency, amount: BigInt(v.amount) })),
  };
}
