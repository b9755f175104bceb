import { withTransaction } from '@exchange/db';
import { emitPaymentOutcome } from '../events/purchase.events';
import type { PurchaseSagaDeps } from './purchase-deps';
import { isTransient, refusalOf, walletUnavailable } from './purchase-errors';
import { walletKey } from './purchase-keys';
import { getSession } from '../checkout/sessions.repo';
import { addReserved, updatePayment } from './purchase.repo';

/**
 * The merchant did not complete (failure_reason recorded): the whole hold goes back to the buyer
 * (Refund, key `…:release`), the mandate's reservation with it, stage `released`, event
 * checkout.payment_failed. Wallet unreachable: stays `hold_placed` + failure_reason, and the
 * recovery worker releases later (never completes again).
 */
export async function releaseHold(d: PurchaseSagaDeps, sessionId: string): Promise<boolean> {
  const released = await withTransaction(d.pool, async (c) => {
    const s = await getSession(c, sessionId, { forUpdate: true });
    if (!s || s.paymentStage !== 'hold_placed' || s.failureReason === null || s.dealId === null || s.holdId === null || s.reservedAmount === null) return false;
    try {
      await d.wallet.refund({ agentId: s.buyerAgentId, holdId: s.holdId, contractId: s.dealId, controller: 'commerce', idempotencyKey: walletKey(sessionId, s.dealId, 'release') });
    } catch (err) {
      if (isTransient(err)) throw walletUnavailable();
      const refusal = refusalOf(err);
      // Not active any more (released before a crash under another key): the money is back already.
      if (refusal.code !== 'invalid_state') {
        d.logger.error({ commerce_session_id: sessionId, hold_id: s.holdId, code: refusal.code }, 'purchase hold could not be released');
        throw refusal;
      }
    }
    const now = d.clock();
    await addReserved(c, s.mandateId, -s.reservedAmount, now);
    await updatePayment(c, sessionId, { paymentStage: 'released' }, now);
    await emitPaymentOutcome(c, 'payment_failed', sessionId);
    return true;
  });
  if (released) d.notify();
  return released;
}
