import type { Listing, Verifier, VerifierListing } from '../domain/model';
import { big, key, page, type Page, type PageQuery, type Queryable, type Row } from '../data/repo-kit';

// Seller listings, verifiers and verifier listings.

const toListing = (r: Row): Listing => ({
  listingId: r.id,
  sellerId: r.seller_id,
  title: r.title,
  description: r.description,
  tags: r.tags,
  price: big(r.price_amount),
  currency: r.currency,
  turnaround: r.turnaround,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toVerifier = (r: Row): Verifier => ({
  verifierId: r.verifier_id,
  name: r.name,
  description: r.description,
  tags: r.tags,
  fee: r.fee_amount === null ? null : { amount: big(r.fee_amount), currency: r.fee_currency },
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toVerifierListing = (r: Row): VerifierListing => ({
  verifierListingId: r.id,
  verifierId: r.verifier_id,
  title: r.title,
  tags: r.tags,
  price: big(r.price_amount),
  currency: r.currency,
  turnaround: r.turnaround,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertListing(db: Queryable, l: Listing): Promise<void> {
  await db.query(
    `INSERT INTO listings (id, seller_id, title, description, tags, price_amount, currency, turnaround, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [l.listingId, l.sellerId, l.title, l.description, l.tags, l.price.toString(), l.currency, l.turnaround, l.createdAt, l.updatedAt],
  );
}

export async function getListing(db: Queryable, id: string): Promise<Listing | null> {
  const { rows } = await db.query('SELECT * FROM listings WHERE id = $1', [id]);
  return rows[0] ? toListing(rows[0]) : null;
}

export function listListings(db: Queryable, filters: { tag?: string }, q: PageQuery): Promise<Page<Listing>> {
  const tag = filters.tag;
  return page(db, 'listings', {}, q, toListing, key, tag === undefined ? {} : { extra: { sql: (p) => `tags @> ARRAY[${p(tag)}]::text[]` } });
}

export async function insertVerifier(db: Queryable, v: Verifier): Promise<void> {
  await db.query(
    `INSERT INTO verifiers (verifier_id, name, description, tags, fee_amount, fee_currency, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [v.verifierId, v.name, v.description, v.tags, v.fee?.amount.toString() ?? null, v.fee?.currency ?? null, v.createdAt, v.updatedAt],
  );
}

export async function getVerifier(db: Queryable, id: string): Promise<Verifier | null> {
  const { rows } = await db.query('SELECT * FROM verifiers WHERE verifier_id = $1', [id]);
  return rows[0] ? toVerifier(rows[0]) : null;
}

export function listVerifiers(db: Queryable, q: PageQuery): Promise<Page<Verifier>> {
  return page(db, 'verifiers', {}, q, toVerifier, (r) => ({ createdAt: r.created_at, id: r.verifier_id }), { idColumn: 'verifier_id' });
}

export async function insertVerifierListing(db: Queryable, v: VerifierListing): Promise<void> {
  await db.query(
    `INSERT INTO verifier_listings (id, verifier_id, title, tags, price_amount, currency, turnaround, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [v.verifierListingId, v.verifierId, v.title, v.tags, v.price.toString(), v.currency, v.turnaround, v.createdAt, v.updatedAt],
  );
}

export function listVerifierListings(db: Queryable, filters: { verifierId?: string }, q: PageQuery): Promise<Page<VerifierListing>> {
  return page(db, 'verifier_listings', { verifier_id: filters.verifierId }, q, toVerifierListing, key);
}
