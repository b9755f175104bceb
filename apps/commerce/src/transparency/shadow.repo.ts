import type { Queryable } from '@exchange/db';
import type { UcpMessage } from '../domain/ucp-types';
import type { SessionFacts } from './shadow-diff';
import type { TimeWindow } from './window';

// The sessions a shadow compare reads: the window's shadow sessions (filtered), and the live
// sessions of the same window for the (buyer, merchant) pairs those shadows have. Only the
// columns a snapshot needs (the merchant checkout's messages, not the whole checkout).

export interface ShadowFilters {
  merchantDomain: string | null;
  buyerAgentId: string | null;
}

interface Row {
  commerce_session_id: string;
  buyer_agent_id: string;
  merchant_domain: string;
  status: SessionFacts['status'];
  approval: SessionFacts['approval'];
  currency: string;
  total: string;
  list_total: string;
  discount_codes: string[] | null;
  line_items: Array<Record<string, unknown>>;
  messages: UcpMessage[] | null;
  created_at: Date;
}

const COLUMNS = `s.commerce_session_id, s.buyer_agent_id, s.merchant_domain, s.status, s.approval, s.currency, s.total::text, s.list_total::text,
  s.discount_codes, s.line_items, CASE WHEN jsonb_typeof(s.merchant_checkout->'messages') = 'array' THEN s.merchant_checkout->'messages' END AS messages, s.created_at`;

const toFacts = (r: Row): SessionFacts => ({
  commerceSessionId: r.commerce_session_id,
  buyerAgentId: r.buyer_agent_id,
  merchantDomain: r.merchant_domain,
  status: r.status,
  approval: r.approval,
  currency: r.currency,
  total: BigInt(r.total),
  listTotal: BigInt(r.list_total),
  discountCodes: r.discount_codes ?? [],
  lineItems: Array.isArray(r.line_items) ? r.line_items : [],
  messages: r.messages ?? [],
  createdAt: r.created_at,
});

/** The window's shadow sessions in (created_at, id) order. */
export async function shadowSessions(db: Queryable, w: TimeWindow, f: ShadowFilters): Promise<SessionFacts[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM checkout_sessions s
      WHERE s.mode = 'shadow' AND s.created_at >= $1 AND s.created_at < $2
        AND ($3::text IS NULL OR s.merchant_domain = $3) AND ($4::text IS NULL OR s.buyer_agent_id = $4)
      ORDER BY s.created_at, s.commerce_session_id`,
    [w.from, w.to, f.merchantDomain, f.buyerAgentId],
  );
  return rows.map(toFacts);
}

/** The window's live sessions whose (buyer, merchant) one of those shadow sessions has. */
export async function liveCounterparts(db: Queryable, w: TimeWindow, f: ShadowFilters): Promise<SessionFacts[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM checkout_sessions s
      WHERE s.mode = 'live' AND s.created_at >= $1 AND s.created_at < $2
        AND (s.buyer_agent_id, s.merchant_domain) IN (
          SELECT DISTINCT x.buyer_agent_id, x.merchant_domain FROM checkout_sessions x
           WHERE x.mode = 'shadow' AND x.created_at >= $1 AND x.created_at < $2
             AND ($3::text IS NULL OR x.merchant_domain = $3) AND ($4::text IS NULL OR x.buyer_agent_id = $4))
      ORDER BY s.created_at, s.commerce_session_id`,
    [w.from, w.to, f.merchantDomain, f.buyerAgentId],
  );
  return rows.map(toFacts);
}
