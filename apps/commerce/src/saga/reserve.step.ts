import { errors, formatAmount, newId } from '@exchange/platform';
import { isCheckViolation, withTransaction } from '@exchange/db';
import { appendEvidence } from '../evidence/evidence.repo';
import { checkSpend } from '../mandates/mandate-rules';
import { getMandate } from '../mandates/mandates.repo';
import { utcMidnight } from '../checkout/session-rules';
import { getSession, hasPurchasedFrom, purchasedSince } from '../checkout/sessions.repo';
import { crashPoint, type PurchaseSagaDeps } from './purchase-deps';
import { addReserved, updatePayment } from './purchase.repo';
import { spendLines } from './purchase-steps';

/**
 * Step 1, one transaction: under the session's and the mandate's row locks, the mandate rules
 * again (the total, today's spend, completes in flight), then the amount is reserved on the
 * mandate and the attempt gets its deal id (every later key derives from it). The CHECK
 * spent + reserved <= total_limit is the last guard when two completes race. No-op when another
 * complete already started this attempt.
 */
export async function reserve(d: PurchaseSagaDeps, sessionId: string, payment: Record<string, unknown> | null): Promise<void> {
  const started = await withTransaction(d.pool, async (c) => {
    const s = await getSession(c, sessionId, { forUpdate: true });
    if (!s) throw errors.notFound('checkout_session', sessionId);
    if (s.paymentStage !== 'none' && s.paymentStage !== 'released') return false;
    if (s.mode !== 'live') throw errors.failedPrecondition('invalid_state', 'a shadow session never pays', { mode: s.mode });
    if (s.total <= 0n) throw errors.failedPrecondition('checkout_not_ready', 'the checkout total is zero: nothing to pay', { total: formatAmount(s.total) });
    const mandate = await getMandate(c, s.mandateId, { forUpdate: true });
    if (!mandate) throw errors.notFound('mandate', s.mandateId);
    const now = d.clock();
    const knownMerchant = await hasPurchasedFrom(c, s.buyerAgentId, s.merchantDomain);
    const spentToday = (await purchasedSince(c, mandate.mandateId, utcMidnight(now))) + mandate.reserved;
    // Refusals are the 403 mandate_* of the rule broken; the approval need was settled by checkout.
    checkSpend(mandate, { buyerAgentId: s.buyerAgentId, merchantDomain: s.merchantDomain, currency: s.currency, total: s.total, lines: spendLines(s.merchantCheckout), now, knownMerchant, spentToday });
    try {
      await addReserved(c, mandate.mandateId, s.total, now);
    } catch (err) {
      if (!isCheckViolation(err, 'mandates_within_total')) throw err;
      throw errors.permissionDenied('mandate_total_exceeded', "this total would pass the mandate's total limit", { total: formatAmount(s.total), total_limit: formatAmount(mandate.limits.total) });
    }
    const dealId = newId('deal');
    await updatePayment(c, sessionId, { paymentStage: 'reserved', reservedAmount: s.total, dealId, holdId: null, failureReason: null }, now);
    await appendEvidence(c, sessionId, [
      {
        kind: 'mandate_check',
        operation: 'reserve',
        content: {
          deal_id: dealId,
          mandate_id: mandate.mandateId,
          amount: formatAmount(s.total),
          currency: s.currency,
          spent: formatAmount(mandate.spent),
          reserved: formatAmount(mandate.reserved + s.total),
          total_limit: formatAmount(mandate.limits.total),
          spent_today: formatAmount(spentToday),
          known_merchant: knownMerchant,
          // Kept so a complete resumed after a crash sends the merchant the same body.
          payment,
        },
        schemaResult: 'not_applicable',
      },
    ], now);
    return true;
  });
  if (started) await crashPoint(d, 'after_reserve', sessionId);
}
