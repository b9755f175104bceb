import { withTransaction } from '@exchange/db';
import { formatAmount, newId } from '@exchange/platform';
import type { CommerceRuntime } from '../service/runtime';
import { isTransient, refusalOf } from '../saga/purchase-errors';
import type { CaseRecord } from './case.model';
import { refundPurchase } from './case-refund.client';
import { enqueueCaseEvent } from './cases.events';
import * as repo from './cases.repo';

export type CaseRefundDeps = Pick<CommerceRuntime, 'pool' | 'wallet' | 'clock' | 'logger' | 'notify'>;

/** Who records the credit: not a person, the approval's consequence. */
export const SYSTEM_ACTOR = 'system:commerce';

/**
 * wallet-ledger's key for a case's refund (scope = the buyer). Derived from the case id alone, so
 * the approve request, a retry and the recovery worker all send the same one: the buyer is paid
 * once however often it is sent. The rest of the request is derived from the case too, so the
 * fingerprint wallet-ledger keeps with the key always matches.
 */
export function refundKey(caseId: string): string {
  return `commerce:case:${caseId}:refund`;
}

export type CreditResult =
  | { kind: 'credited'; case: CaseRecord; receipt: Record<string, unknown> }
  /** Nothing to do: not pending (already credited by another caller, or never approved). */
  | { kind: 'none' }
  /** wallet-ledger did not answer: still pending, retried by the worker. */
  | { kind: 'unavailable' }
  /** wallet-ledger refused for good (e.g. refund_exceeds_paid): still pending, a refund_refused event says why. */
  | { kind: 'refused'; code: string };

/**
 * Credits an approved case whose refund is pending: RefundPurchase with the case's key, then, in
 * one transaction under the case's row lock, refund_state credited + the receipt + refunded_at and
 * the `refund_credited` event. Called after the approval committed and by the recovery worker;
 * never throws for a wallet failure.
 */
export async function creditCase(d: CaseRefundDeps, caseId: string): Promise<CreditResult> {
  const c = await repo.getCase(d.pool, caseId);
  if (c === null || c.refundState !== 'pending') return { kind: 'none' };
  const purchase = await repo.getPurchaseFacts(d.pool, c.dealId);
  if (purchase === null) throw new Error(`case ${caseId} names missing purchase ${c.dealId}`);
  let outcome;
  try {
    outcome = await refundPurchase(d.wallet, {
      buyerAgentId: c.buyerAgentId,
      settlementReceiptId: purchase.receiptId,
      amount: formatAmount(c.amount),
      reason: `post-purchase ${c.type} case ${c.caseId}`,
      idempotencyKey: refundKey(c.caseId),
      caseId: c.caseId,
    });
  } catch (err) {
    if (isTransient(err)) {
      d.logger.warn({ case_id: caseId, err: (err as Error).message }, 'case refund: wallet-ledger unavailable; the recovery worker retries');
      return { kind: 'unavailable' };
    }
    const refusal = refusalOf(err);
    d.logger.error({ case_id: caseId, code: refusal.code, err: refusal.message }, 'case refund refused by wallet-ledger; left pending, not retried');
    await recordRefusal(d, caseId, `${refusal.code}: ${refusal.message}`);
    return { kind: 'refused', code: refusal.code };
  }
  const credited = await withTransaction(d.pool, async (client) => {
    const locked = await repo.getCase(client, caseId, { forUpdate: true });
    if (locked === null || locked.refundState !== 'pending') return null;
    const now = d.clock();
    const updated = await repo.markCredited(client, caseId, outcome.receiptId, outcome.receipt, now);
    const event = await repo.insertEvent(client, {
      eventId: newId('evt'), caseId, type: 'refund_credited', fromStatus: null, toStatus: null, actor: SYSTEM_ACTOR, note: null,
      evidenceRefs: [], amount: updated.amount, receiptId: outcome.receiptId, at: now,
    });
    await enqueueCaseEvent(client, updated, event);
    return updated;
  });
  if (credited === null) return { kind: 'none' };
  d.notify();
  return { kind: 'credited', case: credited, receipt: outcome.receipt };
}

/** The `refund_refused` event (once): the worker skips the case from then on; the operator sees why. */
async function recordRefusal(d: CaseRefundDeps, caseId: string, why: string): Promise<void> {
  await withTransaction(d.pool, async (client) => {
    const locked = await repo.getCase(client, caseId, { forUpdate: true });
    if (locked === null || locked.refundState !== 'pending') return;
    const event = await repo.insertEvent(client, {
      eventId: newId('evt'), caseId, type: 'refund_refused', fromStatus: null, toStatus: null, actor: SYSTEM_ACTOR, note: why.slice(0, 2000),
      evidenceRefs: [], amount: locked.amount, receiptId: null, at: d.clock(),
    });
    await enqueueCaseEvent(client, locked, event);
  });
  d.notify();
}
