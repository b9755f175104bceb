import type { Queryable } from '@exchange/db';
import type { SignalName } from '../domain/boost';
import type { Volume } from './report-types';
import type { Span } from './span';
import { spanWhere } from './span-sql.repo';

// The weekly report's reads. Contract figures come from the contract events of the week (each
// event carries the contract as it was then), so a later change never rewrites a past week;
// include_sandbox = false leaves out the events whose contract is a sandbox one.

const CONTRACT_EVENT = "type LIKE 'exchange.market.contract.%'";
const NOT_SANDBOX = "NOT coalesce((data->'contract'->>'sandbox')::boolean, false)";
/** A decimal amount string → micro-units (numeric keeps it exact). */
const MICRO = (json: string) => `round((${json})::numeric * 1000000)::bigint`;

function contractEvents(span: Span, includeSandbox: boolean, params: unknown[]): string {
  return `${CONTRACT_EVENT} AND ${spanWhere('occurred_at', span, params)}${includeSandbox ? '' : ` AND ${NOT_SANDBOX}`}`;
}

/** Contract events of the span by verb (`created`, `settled`, …). */
export async function contractVerbCounts(db: Queryable, span: Span, includeSandbox: boolean): Promise<Map<string, number>> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ verb: string; n: number }>(
    `SELECT split_part(type, '.', 4) AS verb, count(*)::int AS n FROM events WHERE ${contractEvents(span, includeSandbox, params)} GROUP BY 1`,
    params,
  );
  return new Map(rows.map((r) => [r.verb, r.n]));
}

export interface SettledRow {
  currency: string;
  amount: bigint;
  /** created → settled, ms. */
  settleMs: number;
}

/** The contracts settled in the span: price and time to settle. */
export async function settledContracts(db: Queryable, span: Span, includeSandbox: boolean): Promise<SettledRow[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ currency: string; amount: string; settle_ms: string }>(
    `SELECT data->'contract'->'price'->>'currency' AS currency,
            ${MICRO("data->'contract'->'price'->>'amount'")} AS amount,
            round(extract(epoch FROM coalesce((data->'contract'->>'settledAt')::timestamptz, occurred_at)
                                   - (data->'contract'->>'createdAt')::timestamptz) * 1000)::bigint AS settle_ms
       FROM events
      WHERE type = 'exchange.market.contract.settled' AND data->'contract'->'price' IS NOT NULL
        AND ${contractEvents(span, includeSandbox, params)}`,
    params,
  );
  return rows.map((r) => ({ currency: r.currency, amount: BigInt(r.amount), settleMs: Number(r.settle_ms) }));
}

/** Distinct buyers that created (the private buyer from `restricted`) and sellers that were awarded a contract. */
export async function activeParties(db: Queryable, span: Span, includeSandbox: boolean): Promise<{ buyers: number; sellers: number }> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ buyers: number; sellers: number }>(
    `SELECT count(DISTINCT coalesce(nullif(data->'contract'->>'buyerId', ''), data->'restricted'->>'buyerId'))
              FILTER (WHERE type = 'exchange.market.contract.created')::int AS buyers,
            count(DISTINCT nullif(data->'contract'->>'sellerId', '')) FILTER (WHERE type = 'exchange.market.contract.awarded')::int AS sellers
       FROM events WHERE ${contractEvents(span, includeSandbox, params)}`,
    params,
  );
  return rows[0];
}

/** The `limit` tags with the most contracts created in the span (ties by tag). */
export async function topTags(db: Queryable, span: Span, includeSandbox: boolean, limit: number): Promise<Array<{ tag: string; count: number }>> {
  const params: unknown[] = [];
  const where = contractEvents(span, includeSandbox, params);
  params.push(limit);
  const { rows } = await db.query<{ tag: string; n: number }>(
    `SELECT tag, count(DISTINCT data->'contract'->>'contractId')::int AS n
       FROM events, jsonb_array_elements_text(coalesce(data->'contract'->'tags', '[]'::jsonb)) AS tag
      WHERE type = 'exchange.market.contract.created' AND ${where}
      GROUP BY tag ORDER BY n DESC, tag LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({ tag: r.tag, count: r.n }));
}

/** Purchases completed in the span: how many, and their volume per currency. */
export async function purchaseTotals(db: Queryable, span: Span): Promise<{ purchases: number; volume: Volume[] }> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ currency: string; n: number; amount: string }>(
    `SELECT currency, count(*)::int AS n, sum(amount)::text AS amount FROM purchase_facts
      WHERE ${spanWhere('completed_at', span, params)} GROUP BY currency ORDER BY currency`,
    params,
  );
  return { purchases: rows.reduce((n, r) => n + r.n, 0), volume: rows.map((r) => ({ currency: r.currency, amount: BigInt(r.amount) })) };
}

/** Matching signals that occurred in the span, by kind. */
export async function signalCounts(db: Queryable, span: Span): Promise<Map<SignalName, number>> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ signal: SignalName; n: number }>(
    `SELECT signal, count(*)::int AS n FROM matching_signals WHERE ${spanWhere('occurred_at', span, params)} GROUP BY signal`,
    params,
  );
  return new Map(rows.map((r) => [r.signal, r.n]));
}

/** Every event that occurred in the span. */
export async function eventsIn(db: Queryable, span: Span): Promise<number> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE ${spanWhere('occurred_at', span, params)}`, params);
  return rows[0].n;
}
