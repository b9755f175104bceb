import type pg from 'pg';
import { ERROR_STATUS_MIN, type ProxyMetricsRow } from './metrics-window';

// One pass over the window's calls: counts, latency percentiles (percentile_disc: a latency that
// was actually observed) and max per (agent, upstream), and the spend per currency beside them.
const METRICS = `
  WITH c AS (
    SELECT agent_id, upstream, cost, currency, status, latency_ms FROM proxy_calls
     WHERE recorded_at <= $1 AND ($2::timestamptz IS NULL OR recorded_at > $2)
       AND ($3::text IS NULL OR agent_id = $3) AND ($4::text IS NULL OR upstream = $4)
  ), spend AS (
    SELECT agent_id, upstream, json_agg(json_build_object('currency', currency, 'amount', total::text) ORDER BY currency COLLATE "C") AS spend
      FROM (SELECT agent_id, upstream, currency, sum(cost) AS total FROM c GROUP BY agent_id, upstream, currency) t
     GROUP BY agent_id, upstream
  )
  SELECT m.*, s.spend FROM (
    SELECT agent_id, upstream, count(*)::int AS calls, (count(*) FILTER (WHERE status >= ${ERROR_STATUS_MIN}))::int AS errors,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50,
           percentile_disc(0.9) WITHIN GROUP (ORDER BY latency_ms) AS p90,
           percentile_disc(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99,
           max(latency_ms) AS max
      FROM c GROUP BY agent_id, upstream
  ) m JOIN spend s USING (agent_id, upstream)
  ORDER BY m.agent_id COLLATE "C", m.upstream COLLATE "C"`;

interface MetricsRow {
  agent_id: string;
  upstream: string;
  calls: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  spend: Array<{ currency: string; amount: string }>;
}

/** GetProxyMetrics' query: calls recorded in (from, asOf] (from null: everything up to asOf). */
export class ProxyMetricsRepo {
  constructor(private readonly pool: pg.Pool) {}

  async metrics(q: { from: Date | null; asOf: Date; agentId: string | null; upstream: string | null }): Promise<ProxyMetricsRow[]> {
    const { rows } = await this.pool.query<MetricsRow>(METRICS, [q.asOf, q.from, q.agentId, q.upstream]);
    return rows.map((r) => ({
      agentId: r.agent_id,
      upstream: r.upstream,
      calls: r.calls,
      errors: r.errors,
      spend: r.spend.map((s) => ({ currency: s.currency, amount: BigInt(s.amount) })),
      latencyP50Ms: r.p50,
      latencyP90Ms: r.p90,
      latencyP99Ms: r.p99,
      latencyMaxMs: r.max,
    }));
  }
}
