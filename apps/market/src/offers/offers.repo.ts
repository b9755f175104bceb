import type { Offer } from '../domain/model';
import { big, key, page, type Page, type PageQuery, type Queryable, type Row } from '../data/repo-kit';

// The offers table.

const toOffer = (r: Row): Offer => ({
  offerId: r.id,
  contractId: r.contract_id,
  sellerId: r.seller_id,
  price: big(r.price_amount),
  currency: r.currency,
  eta: r.eta,
  terms: r.terms,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertOffer(db: Queryable, o: Offer): Promise<void> {
  await db.query(
    `INSERT INTO offers (id, contract_id, seller_id, price_amount, currency, eta, terms, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [o.offerId, o.contractId, o.sellerId, o.price.toString(), o.currency, o.eta, o.terms, o.status, o.createdAt, o.updatedAt],
  );
}

export async function getOffer(db: Queryable, id: string): Promise<Offer | null> {
  const { rows } = await db.query('SELECT * FROM offers WHERE id = $1', [id]);
  return rows[0] ? toOffer(rows[0]) : null;
}

export async function setOfferStatus(db: Queryable, id: string, status: Offer['status'], now: Date): Promise<void> {
  await db.query('UPDATE offers SET status = $2, updated_at = $3 WHERE id = $1', [id, status, now]);
}

export async function submittedOffers(db: Queryable, contractId: string): Promise<Offer[]> {
  const { rows } = await db.query(`SELECT * FROM offers WHERE contract_id = $1 AND status = 'submitted' ORDER BY created_at, id`, [contractId]);
  return rows.map(toOffer);
}

export function listOffers(
  db: Queryable,
  contractId: string,
  filters: { sellerId?: string; status?: Offer['status'] },
  q: PageQuery,
): Promise<Page<Offer>> {
  return page(db, 'offers', { contract_id: contractId, seller_id: filters.sellerId, status: filters.status }, q, toOffer, key);
}
