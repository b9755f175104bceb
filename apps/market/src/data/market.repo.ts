import { encodeCursor, type CursorKey } from '@exchange/platform';
import type {
  Contract,
  ContractStatus,
  Dispute,
  Listing,
  Offer,
  Result,
  SagaKind,
  SagaStatus,
  SagaStep,
  VerificationReport,
  Verifier,
  VerifierListing,
} from '../domain/model';
import type { Queryable } from './db';

// Every SQL statement of the market. Rows map to domain objects here and nowhere else; BIGINT
// comes back from pg as a string and becomes a bigint. Lists are ordered (created_at DESC, id
// DESC) and fetched with LIMIT limit + 1 (toPage).

/* eslint-disable @typescript-eslint/no-explicit-any */
type Row = Record<string, any>;

const big = (v: unknown): bigint => BigInt(v as string);
const bigOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(v as string));

function toContract(r: Row): Contract {
  return {
    contractId: r.id,
    buyerId: r.buyer_id,
    title: r.title,
    description: r.description,
    tags: r.tags,
    budget: big(r.budget_amount),
    currency: r.currency,
    deadline: r.deadline,
    acceptanceCriteria: r.acceptance_criteria,
    verificationMode: r.verification_mode,
    verifierId: r.verifier_id,
    listingId: r.listing_id,
    status: r.status,
    sellerId: r.seller_id,
    awardedOfferId: r.awarded_offer_id,
    price: bigOrNull(r.price_amount),
    holdId: r.hold_id,
    escrowStatus: r.escrow_status,
    receiptId: r.receipt_id,
    disputedFrom: r.disputed_from,
    cancelReason: r.cancel_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    awardedAt: r.awarded_at,
    settledAt: r.settled_at,
    buyerPrivate: r.buyer_private === true,
    buyerAlias: r.buyer_alias ?? null,
    buyerAliasGeneration: r.buyer_alias_generation ?? 0,
    templateId: r.template_id ?? null,
    workProductTemplateId: r.work_product_template_id ?? null,
    fixtureId: r.fixture_id ?? null,
    resaleOf: r.resale_of ?? null,
    sandbox: r.sandbox === true,
    correctedAt: r.corrected_at ?? null,
    correctionReceiptId: r.correction_receipt_id ?? null,
    correctionReason: r.correction_reason ?? null,
  };
}

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

const toResult = (r: Row): Result => ({
  resultId: r.id,
  contractId: r.contract_id,
  sellerId: r.seller_id,
  summary: r.summary,
  artifactRefs: r.artifact_refs,
  payloadJson: r.payload_json,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toReport = (r: Row): VerificationReport => ({
  reportId: r.id,
  contractId: r.contract_id,
  resultId: r.result_id,
  verifierId: r.verifier_id,
  verdict: r.verdict,
  score: r.score,
  checks: r.checks,
  signature: r.signature,
  resultCreatedAt: r.result_created_at,
  createdAt: r.created_at,
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

const toDispute = (r: Row): Dispute => ({
  disputeId: r.id,
  contractId: r.contract_id,
  openedBy: r.opened_by,
  reason: r.reason,
  evidenceRefs: r.evidence_refs,
  status: r.status,
  outcome: r.outcome,
  sellerShareBps: r.seller_share_bps,
  rationale: r.rationale,
  resolvedBy: r.resolved_by,
  resolvedAt: r.resolved_at,
  receiptId: r.receipt_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toStep = (r: Row): SagaStep => ({
  stepId: r.step_id,
  contractId: r.contract_id,
  kind: r.kind,
  status: r.status,
  params: r.params,
  walletKey: r.wallet_key,
  attempts: r.attempts,
  lastError: r.last_error,
  lastFailureDefinite: r.last_failure_definite === true,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface PageQuery {
  limit: number;
  after: CursorKey | null;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * A keyset page over `table` with the given equality filters (column → value, undefined = no
 * filter) and an optional extra condition; idColumn is the tie-breaker.
 */
async function page<T>(
  db: Queryable,
  table: string,
  filters: Record<string, unknown>,
  q: PageQuery,
  map: (r: Row) => T,
  keyOf: (r: Row) => CursorKey,
  opts: { idColumn?: string; extra?: { sql: (param: (v: unknown) => string) => string } } = {},
): Promise<Page<T>> {
  const idColumn = opts.idColumn ?? 'id';
  const values: unknown[] = [];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const where: string[] = [];
  for (const [column, value] of Object.entries(filters)) if (value !== undefined) where.push(`${column} = ${param(value)}`);
  if (opts.extra) where.push(opts.extra.sql(param));
  if (q.after) where.push(`(created_at, ${idColumn}) < (${param(q.after.createdAt)}, ${param(q.after.id)})`);
  const sql = `SELECT * FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, ${idColumn} DESC LIMIT ${param(q.limit + 1)}`;
  const { rows } = await db.query(sql, values);
  if (rows.length <= q.limit) return { data: rows.map(map), nextCursor: null };
  const kept = rows.slice(0, q.limit);
  return { data: kept.map(map), nextCursor: encodeCursor(keyOf(kept[kept.length - 1])) };
}

const key = (r: Row): CursorKey => ({ createdAt: r.created_at, id: r.id });

// ---- contracts ----

export async function getContract(db: Queryable, id: string): Promise<Contract | null> {
  const { rows } = await db.query('SELECT * FROM contracts WHERE id = $1', [id]);
  return rows[0] ? toContract(rows[0]) : null;
}

/** The contract row locked FOR UPDATE until the transaction ends (every change and every saga run). */
export async function lockContract(db: Queryable, id: string): Promise<Contract | null> {
  const { rows } = await db.query('SELECT * FROM contracts WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ? toContract(rows[0]) : null;
}

export async function insertContract(db: Queryable, c: Contract): Promise<void> {
  await db.query(
    `INSERT INTO contracts (id, buyer_id, title, description, tags, budget_amount, currency, deadline, acceptance_criteria,
       verification_mode, verifier_id, listing_id, status, escrow_status, created_at, updated_at, buyer_private, buyer_alias,
       template_id, work_product_template_id, fixture_id, resale_of, sandbox)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`,
    [
      c.contractId, c.buyerId, c.title, c.description, c.tags, c.budget.toString(), c.currency, c.deadline, c.acceptanceCriteria,
      c.verificationMode, c.verifierId, c.listingId, c.status, c.escrowStatus, c.createdAt, c.updatedAt, c.buyerPrivate, c.buyerAlias,
      c.templateId, c.workProductTemplateId, c.fixtureId, c.resaleOf, c.sandbox,
    ],
  );
}

/** Writes every mutable column of the contract. */
export async function saveContract(db: Queryable, c: Contract): Promise<void> {
  await db.query(
    `UPDATE contracts SET status = $2, seller_id = $3, awarded_offer_id = $4, price_amount = $5, hold_id = $6, escrow_status = $7,
       receipt_id = $8, disputed_from = $9, cancel_reason = $10, updated_at = $11, awarded_at = $12, settled_at = $13
     WHERE id = $1`,
    [
      c.contractId, c.status, c.sellerId, c.awardedOfferId, c.price?.toString() ?? null, c.holdId, c.escrowStatus,
      c.receiptId, c.disputedFrom, c.cancelReason, c.updatedAt, c.awardedAt, c.settledAt,
    ],
  );
}

/**
 * `hidePrivateBuyerFrom`: a viewer (agent id) for whom the buyer_id filter must not match private
 * contracts it is not a party of (the buyer_id filter is then applied to public buyers only).
 */
export function listContracts(
  db: Queryable,
  filters: { buyerId?: string; sellerId?: string; status?: ContractStatus; hidePrivateBuyerFrom?: string },
  q: PageQuery,
): Promise<Page<Contract>> {
  const viewer = filters.hidePrivateBuyerFrom;
  const extra =
    viewer === undefined
      ? undefined
      : { sql: (param: (v: unknown) => string) => `(NOT buyer_private OR buyer_id = ${param(viewer)} OR seller_id = ${param(viewer)})` };
  return page(db, 'contracts', { buyer_id: filters.buyerId, seller_id: filters.sellerId, status: filters.status }, q, toContract, key, { extra });
}

/** Records the buyer alias once minted (never overwrites another). */
export async function setBuyerAlias(db: Queryable, contractId: string, alias: string): Promise<void> {
  await db.query('UPDATE contracts SET buyer_alias = $2 WHERE id = $1 AND buyer_alias IS NULL', [contractId, alias]);
}

/** Private contracts still waiting for their buyer alias (oldest first, ids only). */
export async function contractsMissingBuyerAlias(db: Queryable, limit: number): Promise<{ contractId: string; buyerId: string }[]> {
  const { rows } = await db.query(
    'SELECT id, buyer_id FROM contracts WHERE buyer_private AND buyer_alias IS NULL ORDER BY created_at, id LIMIT $1',
    [limit],
  );
  return rows.map((r: Row) => ({ contractId: r.id, buyerId: r.buyer_id }));
}

/** Open contracts past their deadline, and awarded ones past deadline + grace (ids only). */
export async function dueContracts(db: Queryable, now: Date, graceMs: number, limit: number): Promise<string[]> {
  const { rows } = await db.query(
    `(SELECT id, deadline FROM contracts WHERE status = 'open' AND deadline < $1)
     UNION ALL
     (SELECT id, deadline FROM contracts WHERE status = 'awarded' AND deadline < $2)
     ORDER BY deadline LIMIT $3`,
    [now, new Date(now.getTime() - graceMs), limit],
  );
  return rows.map((r) => r.id as string);
}

// ---- listings ----

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

// ---- offers ----

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

// ---- results ----

export async function insertResult(db: Queryable, r: Result): Promise<void> {
  await db.query(
    `INSERT INTO results (id, contract_id, seller_id, summary, artifact_refs, payload_json, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [r.resultId, r.contractId, r.sellerId, r.summary, r.artifactRefs, r.payloadJson, r.status, r.createdAt, r.updatedAt],
  );
}

export async function getResult(db: Queryable, id: string): Promise<Result | null> {
  const { rows } = await db.query('SELECT * FROM results WHERE id = $1', [id]);
  return rows[0] ? toResult(rows[0]) : null;
}

export async function latestResult(db: Queryable, contractId: string): Promise<Result | null> {
  const { rows } = await db.query('SELECT * FROM results WHERE contract_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1', [contractId]);
  return rows[0] ? toResult(rows[0]) : null;
}

export async function setResultStatus(db: Queryable, id: string, status: Result['status'], now: Date): Promise<void> {
  await db.query('UPDATE results SET status = $2, updated_at = $3 WHERE id = $1', [id, status, now]);
}

export function listResults(
  db: Queryable,
  contractId: string,
  filters: { sellerId?: string; status?: Result['status'] },
  q: PageQuery,
): Promise<Page<Result>> {
  return page(db, 'results', { contract_id: contractId, seller_id: filters.sellerId, status: filters.status }, q, toResult, key);
}

// ---- verification ----

export async function insertReport(db: Queryable, r: VerificationReport): Promise<void> {
  await db.query(
    `INSERT INTO verification_reports (id, contract_id, result_id, verifier_id, verdict, score, checks, signature, result_created_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10)`,
    [r.reportId, r.contractId, r.resultId, r.verifierId, r.verdict, r.score, JSON.stringify(r.checks), r.signature, r.resultCreatedAt, r.createdAt],
  );
}

/** A contract's reports oldest first, keyset-paged on (created_at, id) ascending. */
export async function listReports(db: Queryable, contractId: string, q: PageQuery): Promise<Page<VerificationReport>> {
  const values: unknown[] = [contractId];
  let after = '';
  if (q.after) {
    values.push(q.after.createdAt, q.after.id);
    after = ' AND (created_at, id) > ($2, $3)';
  }
  values.push(q.limit + 1);
  const { rows } = await db.query(
    `SELECT * FROM verification_reports WHERE contract_id = $1${after} ORDER BY created_at, id LIMIT $${values.length}`,
    values,
  );
  if (rows.length <= q.limit) return { data: rows.map(toReport), nextCursor: null };
  const kept = rows.slice(0, q.limit);
  return { data: kept.map(toReport), nextCursor: encodeCursor(key(kept[kept.length - 1])) };
}

export async function latestReport(db: Queryable, contractId: string): Promise<VerificationReport | null> {
  const { rows } = await db.query('SELECT * FROM verification_reports WHERE contract_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1', [contractId]);
  return rows[0] ? toReport(rows[0]) : null;
}

/** Verdict and latency (ms) of every report created at or after `since` (all when null). */
export async function reportOutcomes(db: Queryable, since: Date | null): Promise<Array<{ verdict: 'pass' | 'fail'; latencyMs: number }>> {
  const { rows } = await db.query(
    `SELECT verdict, (EXTRACT(EPOCH FROM (created_at - result_created_at)) * 1000)::bigint AS latency_ms
       FROM verification_reports WHERE $1::timestamptz IS NULL OR created_at >= $1`,
    [since],
  );
  return rows.map((r) => ({ verdict: r.verdict, latencyMs: Number(r.latency_ms) }));
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

// ---- disputes ----

export async function insertDispute(db: Queryable, d: Dispute): Promise<void> {
  await db.query(
    `INSERT INTO disputes (id, contract_id, opened_by, reason, evidence_refs, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [d.disputeId, d.contractId, d.openedBy, d.reason, d.evidenceRefs, d.status, d.createdAt, d.updatedAt],
  );
}

export async function getDispute(db: Queryable, id: string): Promise<Dispute | null> {
  const { rows } = await db.query('SELECT * FROM disputes WHERE id = $1', [id]);
  return rows[0] ? toDispute(rows[0]) : null;
}

export async function saveDispute(db: Queryable, d: Dispute): Promise<void> {
  await db.query(
    `UPDATE disputes SET status = $2, outcome = $3, seller_share_bps = $4, rationale = $5, resolved_by = $6, resolved_at = $7,
       receipt_id = $8, updated_at = $9 WHERE id = $1`,
    [d.disputeId, d.status, d.outcome, d.sellerShareBps, d.rationale, d.resolvedBy, d.resolvedAt, d.receiptId, d.updatedAt],
  );
}

export function listDisputes(
  db: Queryable,
  contractId: string,
  filters: { openedBy?: string; status?: Dispute['status'] },
  q: PageQuery,
): Promise<Page<Dispute>> {
  return page(db, 'disputes', { contract_id: contractId, opened_by: filters.openedBy, status: filters.status }, q, toDispute, key);
}

// ---- saga steps ----

export async function insertStep(db: Queryable, s: SagaStep): Promise<void> {
  await db.query(
    `INSERT INTO saga_steps (step_id, contract_id, kind, status, params, wallet_key, attempts, last_error, last_failure_definite, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11)`,
    [s.stepId, s.contractId, s.kind, s.status, JSON.stringify(s.params), s.walletKey, s.attempts, s.lastError, s.lastFailureDefinite, s.createdAt, s.updatedAt],
  );
}

export async function getStep(db: Queryable, stepId: string): Promise<SagaStep | null> {
  const { rows } = await db.query('SELECT * FROM saga_steps WHERE step_id = $1', [stepId]);
  return rows[0] ? toStep(rows[0]) : null;
}

/** `lastFailureDefinite`: the run that set `lastError` got a definite refusal (false when none or indefinite). */
export async function updateStep(
  db: Queryable,
  stepId: string,
  status: SagaStatus,
  attempts: number,
  lastError: string | null,
  lastFailureDefinite: boolean,
  now: Date,
): Promise<void> {
  await db.query('UPDATE saga_steps SET status = $2, attempts = $3, last_error = $4, last_failure_definite = $5, updated_at = $6 WHERE step_id = $1', [
    stepId, status, attempts, lastError, lastFailureDefinite, now,
  ]);
}

export async function pendingSteps(db: Queryable, contractId: string): Promise<SagaStep[]> {
  const { rows } = await db.query(`SELECT * FROM saga_steps WHERE contract_id = $1 AND status = 'pending' ORDER BY created_at, step_id`, [contractId]);
  return rows.map(toStep);
}

export async function hasPendingStep(db: Queryable, contractId: string, kind: SagaKind): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM saga_steps WHERE contract_id = $1 AND kind = $2 AND status = 'pending' LIMIT 1`, [contractId, kind]);
  return rows.length > 0;
}

/** Contracts with pending steps created before `olderThan` (all when null), oldest first. */
export async function contractsWithPendingSteps(db: Queryable, olderThan: Date | null, limit: number): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT contract_id, min(created_at) AS first FROM saga_steps
      WHERE status = 'pending' AND ($1::timestamptz IS NULL OR created_at < $1)
      GROUP BY contract_id ORDER BY first LIMIT $2`,
    [olderThan, limit],
  );
  return rows.map((r) => r.contract_id as string);
}

// ---- idempotency ----

export interface IdempotencyRow {
  requestHash: string;
  response: unknown;
  createdAt: Date;
}

/**
 * Claims (scope, rpc, key) inside the caller's open transaction: the uncommitted row is the
 * claim, so a concurrent duplicate's INSERT waits for it (and a claim whose process died goes
 * with its connection). Returns null when the claim is ours, else the committed record.
 */
export async function claimIdempotency(
  db: Queryable,
  scope: string,
  rpc: string,
  key: string,
  requestHash: string,
  now: Date,
  ttlDays: number,
): Promise<IdempotencyRow | null> {
  // An expired record is taken over as if absent.
  const { rows } = await db.query(
    `INSERT INTO idempotency_records (scope, rpc, key, request_hash, response, created_at) VALUES ($1, $2, $3, $4, NULL, $5)
     ON CONFLICT (scope, rpc, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, response = NULL, created_at = EXCLUDED.created_at
       WHERE idempotency_records.created_at < $6
     RETURNING 1`,
    [scope, rpc, key, requestHash, now, new Date(now.getTime() - ttlDays * 86_400_000)],
  );
  if (rows.length > 0) return null;
  const existing = await db.query('SELECT request_hash, response, created_at FROM idempotency_records WHERE scope = $1 AND rpc = $2 AND key = $3', [
    scope, rpc, key,
  ]);
  const r = existing.rows[0];
  return { requestHash: r.request_hash, response: r.response, createdAt: r.created_at };
}

export async function completeIdempotency(db: Queryable, scope: string, rpc: string, key: string, response: unknown): Promise<void> {
  await db.query('UPDATE idempotency_records SET response = $4::jsonb WHERE scope = $1 AND rpc = $2 AND key = $3', [
    scope, rpc, key, JSON.stringify(response),
  ]);
}
