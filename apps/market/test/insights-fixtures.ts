import { uuidv7 } from '@exchange/platform';
import type pg from 'pg';

// SQL fixtures for the insights integration tests: rows with chosen timestamps, so the figures
// can be computed by hand (the service flows stamp "now").

const id = (prefix: string) => `${prefix}_${uuidv7()}`;
const HOUR = 3_600_000;

export interface ContractRow {
  id?: string;
  buyerId: string;
  sellerId?: string | null;
  verifierId?: string | null;
  tags?: string[];
  budget?: bigint;
  price?: bigint | null;
  currency?: string;
  status?: string;
  createdAt: Date;
  deadline?: Date;
  awardedAt?: Date | null;
  settledAt?: Date | null;
  correctedAt?: Date | null;
  receiptId?: string | null;
  sandbox?: boolean;
}

export async function insertContract(sql: pg.Pool, c: ContractRow): Promise<string> {
  const contractId = c.id ?? id('ctr');
  await sql.query(
    `INSERT INTO contracts (id, buyer_id, title, description, tags, budget_amount, currency, deadline, acceptance_criteria,
       verification_mode, verifier_id, status, seller_id, price_amount, receipt_id, created_at, updated_at, awarded_at, settled_at,
       corrected_at, sandbox)
     VALUES ($1, $2, 'fixture', 'fixture', $3, $4, $5, $6, 'fixture', $7, $8, $9, $10, $11, $12, $13, $13, $14, $15, $16, $17)`,
    [
      contractId,
      c.buyerId,
      c.tags ?? ['fixture'],
      String(c.budget ?? 100_000_000n),
      c.currency ?? 'CREDIT',
      c.deadline ?? new Date(c.createdAt.getTime() + 24 * HOUR),
      c.verifierId ? 'verifier' : 'buyer',
      c.verifierId ?? null,
      c.status ?? (c.correctedAt ? 'corrected' : c.settledAt ? 'settled' : c.awardedAt ? 'awarded' : 'open'),
      c.sellerId ?? null,
      c.price === undefined || c.price === null ? null : String(c.price),
      c.receiptId ?? null,
      c.createdAt,
      c.awardedAt ?? null,
      c.settledAt ?? null,
      c.correctedAt ?? null,
      c.sandbox ?? false,
    ],
  );
  return contractId;
}

/** A result of the contract's seller and a report on it (latency = reportAt − resultAt). */
export async function insertReport(
  sql: pg.Pool,
  r: { contractId: string; sellerId: string; verifierId: string; verdict: 'pass' | 'fail'; resultAt: Date; reportAt: Date },
): Promise<void> {
  const resultId = id('res');
  await sql.query(
    `INSERT INTO results (id, contract_id, seller_id, summary, artifact_refs, status, created_at, updated_at)
     VALUES ($1, $2, $3, 'fixture', '{}', $4, $5, $5)`,
    [resultId, r.contractId, r.sellerId, r.verdict === 'pass' ? 'accepted' : 'rejected', r.resultAt],
  );
  await sql.query(
    `INSERT INTO verification_reports (id, contract_id, result_id, verifier_id, verdict, score, checks, signature, result_created_at, created_at)
     VALUES ($1, $2, $3, $4, $5, 1, '[]', 'fixture', $6, $7)`,
    [id('vrp'), r.contractId, resultId, r.verifierId, r.verdict, r.resultAt, r.reportAt],
  );
}

export async function insertDispute(
  sql: pg.Pool,
  d: { contractId: string; openedBy: string; outcome: 'seller' | 'buyer' | 'split'; sellerShareBps?: number; resolvedAt: Date },
): Promise<void> {
  await sql.query(
    `INSERT INTO disputes (id, contract_id, opened_by, reason, evidence_refs, status, outcome, seller_share_bps, rationale, resolved_by,
       resolved_at, created_at, updated_at)
     VALUES ($1, $2, $3, 'fixture', '{}', 'resolved', $4, $5, 'fixture', 'operator:ops', $6, $6, $6)`,
    [id('dsp'), d.contractId, d.openedBy, d.outcome, d.sellerShareBps ?? null, d.resolvedAt],
  );
}

export async function insertListing(sql: pg.Pool, l: { sellerId: string; tags: string[]; price: bigint; currency?: string; createdAt: Date }): Promise<string> {
  const listingId = id('lst');
  await sql.query(
    `INSERT INTO listings (id, seller_id, title, description, tags, price_amount, currency, created_at, updated_at)
     VALUES ($1, $2, 'fixture', 'fixture', $3, $4, $5, $6, $6)`,
    [listingId, l.sellerId, l.tags, String(l.price), l.currency ?? 'CREDIT', l.createdAt],
  );
  return listingId;
}

export async function insertOffer(sql: pg.Pool, o: { contractId: string; sellerId: string; createdAt: Date }): Promise<void> {
  await sql.query(
    `INSERT INTO offers (id, contract_id, seller_id, price_amount, currency, eta, terms, status, created_at, updated_at)
     VALUES ($1, $2, $3, 100000000, 'CREDIT', $4, 'fixture', 'submitted', $4, $4)`,
    [id('ofr'), o.contractId, o.sellerId, o.createdAt],
  );
}
