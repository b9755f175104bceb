import { canonicalize, sha256Hex } from '@exchange/crypto';
import { withTransaction } from '@exchange/db';
import { encodeCursor, decodeCursor, errors, newId, resolveLimit } from '@exchange/platform';
import type pg from 'pg';
import { idempotencyKey } from '../mandates/mandate-input';
import { actorName, type Actor, type CaseEventRecord, type CaseRecord } from './case.model';
import { requireBuyer, requireOperator, requireParty } from './case-access';
import { EVIDENCE_REFS_PER_CASE, openingAmount, requireRefundFits, validateCreateCase, validateUpdateCase, type CreateCaseInput, type UpdateCaseInput } from './case-input';
import { requireEvidenceOpen, requireMove } from './case-machine';
import { creditCase, type CaseRefundDeps } from './case-refund.service';
import * as keys from './case-idempotency.repo';
import { enqueueCaseEvent } from './cases.events';
import * as repo from './cases.repo';

export type CasesDeps = CaseRefundDeps;

export interface UpdateOutcome {
  case: CaseRecord;
  /** The refund receipt when this update credited the buyer. */
  refundReceipt: Record<string, unknown> | null;
}

/** Post-purchase cases: the buyer opens, the operator moves, an approval credits the buyer once. */
export class CasesService {
  constructor(private readonly deps: CasesDeps) {}

  /**
   * Opens a case on a deal the acting agent bought (400s first, then 404 purchase_not_found, 403
   * not_deal_buyer, 409 refund_exceeds_paid), with its `opened` event. With an idempotency key:
   * the same request again answers the stored case (`replayed`), another one 422.
   */
  async create(input: CreateCaseInput, actor: Actor): Promise<{ case: CaseRecord; replayed: boolean }> {
    const draft = validateCreateCase(input);
    const key = idempotencyKey(input.idempotencyKey);
    const hash = sha256Hex(canonicalize({ rpc: keys.CREATE_CASE_RPC, deal_id: draft.dealId, type: draft.type, reason: draft.reason, amount: input.amount ?? null, evidence_refs: draft.evidenceRefs }));
    const scope = actor.agentId ?? '';
    if (key !== undefined && !actor.operator) {
      const earlier = await keys.findCreateCaseKey(this.deps.pool, scope, key);
      if (earlier !== null) return this.replay(earlier, hash);
    }
    const purchase = await repo.getPurchaseFacts(this.deps.pool, draft.dealId);
    if (purchase === null) throw errors.notFound('purchase', draft.dealId);
    requireBuyer(purchase.buyerAgentId, purchase.dealId, actor);
    const now = this.deps.clock();
    const record: CaseRecord = {
      caseId: newId('case'),
      dealId: purchase.dealId,
      buyerAgentId: purchase.buyerAgentId,
      merchantDomain: purchase.merchantDomain,
      type: draft.type,
      reason: draft.reason,
      amount: openingAmount(purchase, draft.amount),
      currency: purchase.currency,
      status: 'open',
      evidenceRefs: draft.evidenceRefs,
      refundState: 'none',
      refundReceiptId: null,
      refundReceipt: null,
      refundedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const concurrent = await withTransaction(this.deps.pool, async (client) => {
      if (key !== undefined) {
        const hit = await keys.claimCreateCaseKey(client, scope, key, hash, record.caseId, now);
        if (hit !== null) return hit;
      }
      await repo.insertCase(client, record);
      await this.event(client, record, { type: 'opened', toStatus: 'open', actor: actorName(actor), note: null, evidenceRefs: record.evidenceRefs, amount: record.amount }, now);
      return null;
    });
    if (concurrent !== null) return this.replay(concurrent, hash);
    this.deps.notify();
    return { case: record, replayed: false };
  }

  async get(caseId: string, actor: Actor): Promise<CaseRecord> {
    return this.readable(await repo.getCase(this.deps.pool, caseId), caseId, actor);
  }

  /**
   * Adds evidence (buyer or operator, until decided) and/or moves the status (operator, along the
   * machine), each with its event, in one transaction. Approving takes the purchase's row lock and
   * adds the amount to purchases.refunded (409 refund_exceeds_paid when it would pass what was
   * paid: nothing changes); after the commit the buyer is credited (creditCase).
   */
  async update(input: UpdateCaseInput, actor: Actor): Promise<UpdateOutcome> {
    const draft = validateUpdateCase(input);
    const updated = await withTransaction(this.deps.pool, async (client) => {
      let c = this.readable(await repo.getCase(client, draft.caseId, { forUpdate: true }), draft.caseId, actor);
      if (draft.status !== undefined) requireOperator(actor);
      const now = this.deps.clock();
      if (draft.addEvidenceRefs.length > 0) {
        requireEvidenceOpen(c.status);
        const fresh = draft.addEvidenceRefs.filter((r) => !c.evidenceRefs.includes(r));
        if (c.evidenceRefs.length + fresh.length > EVIDENCE_REFS_PER_CASE) {
          throw errors.invalidArgument('validation_failed', `a case holds at most ${EVIDENCE_REFS_PER_CASE} evidence_refs`, { field: 'evidence_refs' });
        }
        if (fresh.length > 0) {
          c = await repo.appendEvidence(client, c.caseId, fresh, now);
          const note = draft.status === undefined ? draft.note : null;
          await this.event(client, c, { type: 'evidence_added', toStatus: null, actor: actorName(actor), note, evidenceRefs: fresh, amount: null }, now);
        }
      }
      if (draft.status !== undefined) {
        const from = c.status;
        const to = requireMove(from, draft.status);
        if (to === 'approved') {
          const purchase = await repo.getPurchaseFacts(client, c.dealId, { forUpdate: true });
          if (purchase === null) throw new Error(`case ${c.caseId} names missing purchase ${c.dealId}`);
          requireRefundFits(purchase, c.amount);
          await repo.addRefunded(client, c.dealId, c.amount);
        }
        c = await repo.setStatus(client, c.caseId, to, to === 'approved' ? 'pending' : c.refundState, now);
        await this.event(client, c, { type: 'status_changed', fromStatus: from, toStatus: to, actor: actorName(actor), note: draft.note, evidenceRefs: [], amount: to === 'approved' ? c.amount : null }, now);
      }
      return c;
    });
    this.deps.notify();
    if (updated.refundState !== 'pending' || draft.status !== 'approved') return { case: updated, refundReceipt: null };
    const credit = await creditCase(this.deps, updated.caseId);
    if (credit.kind === 'credited') return { case: credit.case, refundReceipt: credit.receipt };
    return { case: (await repo.getCase(this.deps.pool, updated.caseId)) ?? updated, refundReceipt: null };
  }

  /** The case's events, oldest first (seq), cursor pagination. */
  async listEvents(caseId: string, actor: Actor, limit: number, cursor: string): Promise<{ data: CaseEventRecord[]; nextCursor: string | null }> {
    const size = resolveLimit(limit);
    const afterSeq = cursor === '' ? 0 : seqOfCursor(cursor);
    await this.get(caseId, actor);
    const rows = await repo.listEvents(this.deps.pool, caseId, afterSeq, size + 1);
    if (rows.length <= size) return { data: rows, nextCursor: null };
    const data = rows.slice(0, size);
    const last = data[data.length - 1];
    return { data, nextCursor: encodeCursor({ createdAt: last.at, id: String(last.seq) }) };
  }

  private readable(c: CaseRecord | null, caseId: string, actor: Actor): CaseRecord {
    if (c === null) throw errors.notFound('case', caseId);
    requireParty(c.buyerAgentId, c.dealId, actor);
    return c;
  }

  private async event(client: pg.PoolClient, c: CaseRecord, e: Pick<CaseEventRecord, 'type' | 'toStatus' | 'actor' | 'note' | 'evidenceRefs' | 'amount'> & { fromStatus?: CaseEventRecord['fromStatus'] }, at: Date): Promise<void> {
    const row = await repo.insertEvent(client, { eventId: newId('evt'), caseId: c.caseId, fromStatus: e.fromStatus ?? null, receiptId: null, at, ...e });
    await enqueueCaseEvent(client, c, row);
  }

  private async replay(hit: keys.IdempotencyHit, hash: string): Promise<{ case: CaseRecord; replayed: boolean }> {
    if (hit.requestHash !== hash) throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request');
    const c = await repo.getCase(this.deps.pool, hit.caseId);
    if (c === null) throw new Error(`idempotency record names missing case ${hit.caseId}`);
    return { case: c, replayed: true };
  }
}

/** The seq a ListCaseEvents cursor points at (400 invalid_cursor otherwise). */
function seqOfCursor(cursor: string): number {
  const { id } = decodeCursor(cursor);
  if (!/^[1-9]\d{0,8}$/.test(id)) throw errors.invalidArgument('invalid_cursor', 'cursor is not valid');
  return Number(id);
}
