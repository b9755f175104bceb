import type { Queryable } from '@exchange/db';
import type { ReputationFacts, Settlement } from './reputation';
import type { VerifierReportFact } from './verifier-reputation';
import type { PricedContract } from './percentiles';
import type { SellerProfile } from './seller-fit';

// The SQL of the insights (read-only). Windows are (start, as_of] like window.ts; the pure
// formulas filter again, so the SQL only has to bring at least the facts that count.

/* eslint-disable @typescript-eslint/no-explicit-any */
type Row = Record<string, any>;

/** Upper bounds that keep one recommendation request bounded on a large market. */
const MAX_SELLER_CANDIDATES = 2000;
const MAX_OPEN_CONTRACTS = 2000;

const toSettlement = (r: Row): Settlement => ({
  contractId: r.id,
  settledAt: r.settled_at,
  correctedAt: r.corrected_at,
  price: BigInt(r.price_amount ?? '0'),
  currency: r.currency,
  receiptId: r.receipt_id,
});

const emptyFacts = (): ReputationFacts => ({ asSeller: [], asBuyer: [], verifications: [], sellerDisputes: [], buyerDisputes: [] });

/** Everything rep-v1 needs for each agent, in (start, asOf]. */
export async function reputationFacts(db: Queryable, agentIds: readonly string[], start: Date, asOf: Date): Promise<Map<string, ReputationFacts>> {
  const out = new Map<string, ReputationFacts>(agentIds.map((id) => [id, emptyFacts()]));
  if (agentIds.length === 0) return out;
  const ids = [...agentIds];
  const settlementCols = 'id, seller_id, buyer_id, settled_at, corrected_at, price_amount, currency, receipt_id';
  const [seller, buyer, verifications, sellerDisputes, buyerDisputes] = await Promise.all([
    db.query(`SELECT ${settlementCols} FROM contracts WHERE seller_id = ANY($1) AND settled_at > $2 AND settled_at <= $3`, [ids, start, asOf]),
    db.query(`SELECT ${settlementCols} FROM contracts WHERE buyer_id = ANY($1) AND settled_at > $2 AND settled_at <= $3`, [ids, start, asOf]),
    db.query(
      `SELECT r.seller_id, v.created_at, v.verdict FROM verification_reports v JOIN results r ON r.id = v.result_id
        WHERE r.seller_id = ANY($1) AND v.created_at > $2 AND v.created_at <= $3`,
      [ids, start, asOf],
    ),
    db.query(
      `SELECT c.seller_id, d.resolved_at, d.outcome, d.seller_share_bps FROM disputes d JOIN contracts c ON c.id = d.contract_id
        WHERE c.seller_id = ANY($1) AND d.outcome IS NOT NULL AND d.resolved_at > $2 AND d.resolved_at <= $3`,
      [ids, start, asOf],
    ),
    db.query(
      `SELECT d.opened_by, d.resolved_at, d.outcome FROM disputes d JOIN contracts c ON c.id = d.contract_id AND c.buyer_id = d.opened_by
        WHERE d.opened_by = ANY($1) AND d.outcome IS NOT NULL AND d.resolved_at > $2 AND d.resolved_at <= $3`,
      [ids, start, asOf],
    ),
  ]);
  for (const r of seller.rows) out.get(r.seller_id)?.asSeller.push(toSettlement(r));
  for (const r of buyer.rows) out.get(r.buyer_id)?.asBuyer.push(toSettlement(r));
  for (const r of verifications.rows) out.get(r.seller_id)?.verifications.push({ at: r.created_at, verdict: r.verdict });
  for (const r of sellerDisputes.rows) {
    out.get(r.seller_id)?.sellerDisputes.push({ resolvedAt: r.resolved_at, outcome: r.outcome, sellerShareBps: r.seller_share_bps });
  }
  for (const r of buyerDisputes.rows) out.get(r.opened_by)?.buyerDisputes.push({ resolvedAt: r.resolved_at, outcome: r.outcome });
  return out;
}

/** A verifier is known when registered (verifiers) or when it signed a report (buyer-mode verifiers never register). */
export async function verifierKnown(db: Queryable, verifierId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT EXISTS (SELECT 1 FROM verifiers WHERE verifier_id = $1) OR EXISTS (SELECT 1 FROM verification_reports WHERE verifier_id = $1) AS known`,
    [verifierId],
  );
  return rows[0].known === true;
}

/** The verifier's reports in (start, asOf], each with the latest dispute on its contract resolved by asOf. */
export async function verifierFacts(db: Queryable, verifierId: string, start: Date, asOf: Date): Promise<VerifierReportFact[]> {
  const { rows } = await db.query(
    `SELECT v.created_at, v.result_created_at, v.verdict, d.resolved_at, d.outcome, d.seller_share_bps
       FROM verification_reports v
       LEFT JOIN LATERAL (
         SELECT resolved_at, outcome, seller_share_bps FROM disputes
          WHERE contract_id = v.contract_id AND outcome IS NOT NULL AND resolved_at <= $3
          ORDER BY resolved_at DESC, id DESC LIMIT 1
       ) d ON true
      WHERE v.verifier_id = $1 AND v.created_at > $2 AND v.created_at <= $3`,
    [verifierId, start, asOf],
  );
  return rows.map((r: Row) => ({
    at: r.created_at,
    resultAt: r.result_created_at,
    verdict: r.verdict,
    dispute: r.outcome ? { resolvedAt: r.resolved_at, outcome: r.outcome, sellerShareBps: r.seller_share_bps } : null,
  }));
}

/** Clearing prices: settled in (start, asOf] and not corrected by asOf. */
export async function clearingPrices(
  db: Queryable,
  q: { start: Date | null; asOf: Date; includeSandbox: boolean; tag: string | null },
): Promise<PricedContract[]> {
  const { rows } = await db.query(
    `SELECT tags, currency, price_amount FROM contracts
      WHERE settled_at <= $1 AND ($2::timestamptz IS NULL OR settled_at > $2) AND price_amount IS NOT NULL
        AND (corrected_at IS NULL OR corrected_at > $1) AND ($3 OR NOT sandbox) AND ($4::text IS NULL OR $4 = ANY(tags))`,
    [q.asOf, q.start, q.includeSandbox, q.tag],
  );
  return rows.map((r: Row) => ({ tags: r.tags, currency: r.currency, price: BigInt(r.price_amount) }));
}

export interface TapeRow {
  currency: string;
  count: number;
  volume: bigint;
}

/** Opened (budgets), awarded (prices) and settled (prices, not corrected by asOf) per currency in (start, asOf]. */
export async function tape(
  db: Queryable,
  q: { start: Date | null; asOf: Date; includeSandbox: boolean },
): Promise<{ opened: TapeRow[]; awarded: TapeRow[]; settled: TapeRow[] }> {
  const figure = async (column: string, amount: string, extra = '') => {
    const { rows } = await db.query(
      `SELECT currency, count(*)::int AS n, COALESCE(sum(${amount}), 0)::text AS volume FROM contracts
        WHERE ${column} <= $1 AND ($2::timestamptz IS NULL OR ${column} > $2) AND ($3 OR NOT sandbox) ${extra}
        GROUP BY currency ORDER BY currency`,
      [q.asOf, q.start, q.includeSandbox],
    );
    return rows.map((r: Row) => ({ currency: r.currency, count: r.n, volume: BigInt(r.volume) }));
  };
  const [opened, awarded, settled] = await Promise.all([
    figure('created_at', 'budget_amount'),
    figure('awarded_at', 'price_amount'),
    figure('settled_at', 'price_amount', 'AND (corrected_at IS NULL OR corrected_at > $1)'),
  ]);
  return { opened, awarded, settled };
}

// ---- recommendations ----

export type { SellerListing, SellerProfile } from './seller-fit';

/** Agents with a listing, an offer or an award, except `exclude` (the contract's buyer and verifier). */
export async function sellerCandidates(db: Queryable, exclude: readonly string[]): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT seller_id FROM (
       SELECT seller_id FROM listings UNION SELECT seller_id FROM offers UNION SELECT seller_id FROM contracts WHERE seller_id IS NOT NULL
     ) s WHERE NOT (seller_id = ANY($1)) ORDER BY seller_id LIMIT ${MAX_SELLER_CANDIDATES}`,
    [[...exclude]],
  );
  return rows.map((r: Row) => r.seller_id);
}

export async function sellerProfiles(db: Queryable, sellerIds: readonly string[]): Promise<Map<string, SellerProfile>> {
  const out = new Map<string, SellerProfile>(
    sellerIds.map((id) => [id, { sellerId: id, listings: [], wonTags: [], awardedPrices: new Map(), settled: 0, lastActivity: null }]),
  );
  if (sellerIds.length === 0) return out;
  const ids = [...sellerIds];
  const [listings, won, activity] = await Promise.all([
    db.query(`SELECT id, seller_id, tags, price_amount, currency FROM listings WHERE seller_id = ANY($1) ORDER BY created_at, id`, [ids]),
    db.query(
      `SELECT seller_id, tags, price_amount, currency, (settled_at IS NOT NULL AND corrected_at IS NULL) AS settled
         FROM contracts WHERE seller_id = ANY($1) AND awarded_at IS NOT NULL`,
      [ids],
    ),
    db.query(
      `SELECT seller_id, max(at) AS last FROM (
         SELECT seller_id, created_at AS at FROM listings WHERE seller_id = ANY($1)
         UNION ALL SELECT seller_id, created_at FROM offers WHERE seller_id = ANY($1)
         UNION ALL SELECT seller_id, created_at FROM results WHERE seller_id = ANY($1)
         UNION ALL SELECT seller_id, settled_at FROM contracts WHERE seller_id = ANY($1) AND settled_at IS NOT NULL
       ) a GROUP BY seller_id`,
      [ids],
    ),
  ]);
  for (const r of listings.rows) {
    out.get(r.seller_id)?.listings.push({ listingId: r.id, tags: r.tags, price: BigInt(r.price_amount), currency: r.currency });
  }
  for (const r of won.rows) {
    const p = out.get(r.seller_id);
    if (!p) continue;
    p.wonTags.push(...r.tags);
    if (r.price_amount !== null) p.awardedPrices.set(r.currency, [...(p.awardedPrices.get(r.currency) ?? []), BigInt(r.price_amount)]);
    if (r.settled) p.settled++;
  }
  for (const r of activity.rows) {
    const p = out.get(r.seller_id);
    if (p) p.lastActivity = r.last;
  }
  return out;
}

export interface OpenContract {
  contractId: string;
  buyerId: string;
  tags: string[];
  budget: bigint;
  currency: string;
  createdAt: Date;
  offers: number;
}

/** Open contracts a seller could offer on: deadline ahead, not its own, not verified by it, no offer of its own yet. */
export async function openContractsFor(db: Queryable, sellerId: string, now: Date): Promise<OpenContract[]> {
  const { rows } = await db.query(
    `SELECT c.id, c.buyer_id, c.tags, c.budget_amount, c.currency, c.created_at,
            (SELECT count(*)::int FROM offers o WHERE o.contract_id = c.id) AS offers
       FROM contracts c
      WHERE c.status = 'open' AND c.deadline > $2 AND c.buyer_id <> $1 AND c.verifier_id IS DISTINCT FROM $1
        AND NOT EXISTS (SELECT 1 FROM offers o WHERE o.contract_id = c.id AND o.seller_id = $1)
      ORDER BY c.created_at DESC, c.id DESC LIMIT ${MAX_OPEN_CONTRACTS}`,
    [sellerId, now],
  );
  return rows.map((r: Row) => ({
    contractId: r.id,
    buyerId: r.buyer_id,
    tags: r.tags,
    budget: BigInt(r.budget_amount),
    currency: r.currency,
    createdAt: r.created_at,
    offers: r.offers,
  }));
}
