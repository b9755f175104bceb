import type { Queryable } from '@exchange/db';
import type { AgentCurrencyKey, AgentSpendSavings, CurrencyRollup } from './rollups.model';
import type { TimeWindow } from './window';

// The rollups' SQL: every figure is a BIGINT sum or a count computed by PostgreSQL over the
// half-open window [from, to) — purchases by completed_at, lifecycle entries by at, cases by
// created_at (opened) and refunded_at (credited).

interface MonthlyRow {
  currency: string;
  spend: string;
  savings: string;
  purchases: string;
  escalations: string;
  approvals_denied: string;
  returns: string;
  refunds: string;
  chargebacks: string;
  refunded: string;
}

/** One row per currency that has anything in the window, by currency. */
export async function monthlyRollup(db: Queryable, w: TimeWindow): Promise<CurrencyRollup[]> {
  const { rows } = await db.query<MonthlyRow>(
    `WITH p AS (
       SELECT currency, SUM(amount) AS spend, SUM(list_amount - amount) AS savings, COUNT(*) AS purchases
         FROM purchases WHERE completed_at >= $1 AND completed_at < $2 GROUP BY currency),
     l AS (
       SELECT currency,
              COUNT(DISTINCT commerce_session_id) FILTER (WHERE kind = 'approval_requested') AS escalations,
              COUNT(*) FILTER (WHERE kind = 'approval_decided' AND approval = 'denied') AS approvals_denied
         FROM session_lifecycle WHERE kind IN ('approval_requested', 'approval_decided') AND at >= $1 AND at < $2 GROUP BY currency),
     c AS (
       SELECT currency,
              COUNT(*) FILTER (WHERE type = 'return') AS returns,
              COUNT(*) FILTER (WHERE type = 'refund') AS refunds,
              COUNT(*) FILTER (WHERE type = 'chargeback') AS chargebacks
         FROM purchase_cases WHERE created_at >= $1 AND created_at < $2 GROUP BY currency),
     r AS (
       SELECT currency, SUM(amount) AS refunded
         FROM purchase_cases WHERE refund_state = 'credited' AND refunded_at >= $1 AND refunded_at < $2 GROUP BY currency),
     cur AS (SELECT currency FROM p UNION SELECT currency FROM l UNION SELECT currency FROM c UNION SELECT currency FROM r)
     SELECT cur.currency,
            COALESCE(p.spend, 0)::text AS spend, COALESCE(p.savings, 0)::text AS savings, COALESCE(p.purchases, 0)::text AS purchases,
            COALESCE(l.escalations, 0)::text AS escalations, COALESCE(l.approvals_denied, 0)::text AS approvals_denied,
            COALESCE(c.returns, 0)::text AS returns, COALESCE(c.refunds, 0)::text AS refunds, COALESCE(c.chargebacks, 0)::text AS chargebacks,
            COALESCE(r.refunded, 0)::text AS refunded
       FROM cur LEFT JOIN p USING (currency) LEFT JOIN l USING (currency) LEFT JOIN c USING (currency) LEFT JOIN r USING (currency)
      ORDER BY cur.currency`,
    [w.from, w.to],
  );
  return rows.map((r) => ({
    currency: r.currency,
    spend: BigInt(r.spend),
    savings: BigInt(r.savings),
    purchases: Number(r.purchases),
    escalations: Number(r.escalations),
    approvalsDenied: Number(r.approvals_denied),
    returns: Number(r.returns),
    refunds: Number(r.refunds),
    chargebacks: Number(r.chargebacks),
    refunded: BigInt(r.refunded),
  }));
}

export interface SpendSavingsQuery {
  window: TimeWindow | null;
  agentId: string | null;
  currency: string | null;
  after: AgentCurrencyKey | null;
  limit: number;
}

interface AgentRow {
  agent_id: string;
  currency: string;
  spend: string;
  savings: string;
  purchases: string;
  refunded: string;
  net_spend: string;
}

/** Rows by (agent_id, currency) after `after`, at most `limit`; all time when window is null. */
export async function spendSavings(db: Queryable, q: SpendSavingsQuery): Promise<AgentSpendSavings[]> {
  const { rows } = await db.query<AgentRow>(
    `WITH p AS (
       SELECT buyer_agent_id AS agent_id, currency, SUM(amount) AS spend, SUM(list_amount - amount) AS savings, COUNT(*) AS purchases
         FROM purchases
        WHERE ($1::timestamptz IS NULL OR (completed_at >= $1 AND completed_at < $2))
          AND ($3::text IS NULL OR buyer_agent_id = $3) AND ($4::text IS NULL OR currency = $4)
        GROUP BY buyer_agent_id, currency),
     r AS (
       SELECT buyer_agent_id AS agent_id, currency, SUM(amount) AS refunded
         FROM purchase_cases
        WHERE refund_state = 'credited' AND ($1::timestamptz IS NULL OR (refunded_at >= $1 AND refunded_at < $2))
          AND ($3::text IS NULL OR buyer_agent_id = $3) AND ($4::text IS NULL OR currency = $4)
        GROUP BY buyer_agent_id, currency)
     SELECT agent_id, currency,
            COALESCE(p.spend, 0)::text AS spend, COALESCE(p.savings, 0)::text AS savings, COALESCE(p.purchases, 0)::text AS purchases,
            COALESCE(r.refunded, 0)::text AS refunded, (COALESCE(p.spend, 0) - COALESCE(r.refunded, 0))::text AS net_spend
       FROM p FULL JOIN r USING (agent_id, currency)
      WHERE $5::text IS NULL OR (agent_id, currency) > ($5::text, $6::text)
      ORDER BY agent_id, currency
      LIMIT $7`,
    [q.window?.from ?? null, q.window?.to ?? null, q.agentId, q.currency, q.after?.agentId ?? null, q.after?.currency ?? null, q.limit],
  );
  return rows.map((r) => ({
    agentId: r.agent_id,
    currency: r.currency,
    spend: BigInt(r.spend),
    savings: BigInt(r.savings),
    purchases: Number(r.purchases),
    refunded: BigInt(r.refunded),
    netSpend: BigInt(r.net_spend),
  }));
}
