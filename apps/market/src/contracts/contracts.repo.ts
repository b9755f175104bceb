import type { Contract, ContractStatus } from '../domain/model';
import { big, bigOrNull, key, page, type Page, type PageQuery, type Queryable, type Row } from '../data/repo-kit';

// The contracts table: the contract row, its lock, paging and the sweeper's and recovery's scans.

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
    labels: r.labels ?? {},
    inputRefs: r.input_refs ?? [],
  };
}

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
       template_id, work_product_template_id, fixture_id, resale_of, sandbox, labels, input_refs)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)`,
    [
      c.contractId, c.buyerId, c.title, c.description, c.tags, c.budget.toString(), c.currency, c.deadline, c.acceptanceCriteria,
      c.verificationMode, c.verifierId, c.listingId, c.status, c.escrowStatus, c.createdAt, c.updatedAt, c.buyerPrivate, c.buyerAlias,
      c.templateId, c.workProductTemplateId, c.fixtureId, c.resaleOf, c.sandbox, JSON.stringify(c.labels), c.inputRefs,
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
