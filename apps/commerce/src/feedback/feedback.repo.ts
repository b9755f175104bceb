import type { Queryable } from '@exchange/db';
import type { DealParties, FeedbackRecord } from './feedback.model';

// The feedback table and the purchase read it needs. Once per deal and buyer is the unique index
// feedback_deal_id_buyer_agent_id_key: the insert asks it (ON CONFLICT), never a read first.

export async function getDealParties(db: Queryable, dealId: string): Promise<DealParties | null> {
  const { rows } = await db.query<{ deal_id: string; buyer_agent_id: string; merchant_domain: string }>(
    'SELECT deal_id, buyer_agent_id, merchant_domain FROM purchases WHERE deal_id = $1',
    [dealId],
  );
  return rows.length === 0 ? null : { dealId: rows[0].deal_id, buyerAgentId: rows[0].buyer_agent_id, merchantDomain: rows[0].merchant_domain };
}

/** Inserts the feedback; false when the buyer already rated this deal (nothing written). */
export async function insertFeedback(db: Queryable, f: FeedbackRecord): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO feedback (feedback_id, deal_id, buyer_agent_id, merchant_domain, rating, comment, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (deal_id, buyer_agent_id) DO NOTHING RETURNING 1`,
    [f.feedbackId, f.dealId, f.buyerAgentId, f.merchantDomain, f.rating, f.comment, f.createdAt],
  );
  return rows.length > 0;
}
