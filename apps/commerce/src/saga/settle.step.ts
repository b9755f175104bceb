import { withTransaction } from '@exchange/db';
import { emitMandateExhausted, emitPaymentOutcome, emitPurchaseRecorded } from '../events/purchase.events';
import { crashPoint, type PurchaseSagaDeps } from './purchase-deps';
import { isTransient, refusalOf, walletUnavailable } from './purchase-errors';
import { walletKey } from './purchase-keys';
import type { PurchaseRecord } from '../checkout/session.model';
import { getSession } from '../checkout/sessions.repo';
import { insertPurchase, spendReserved, updatePayment } from './purchase.repo';
import { walletReceiptJson } from '../clients/wallet-receipt';

/**
 * Step 4: the merchant completed, so the hold pays the merchant's settlement account (Settle, key
 * `…:settle`, contract = the deal id) and, in one transaction, the purchase is recorded, the
 * mandate's reservation becomes spend, the session is settled + completed, with events
 * purchase.recorded and checkout.completed. A refusal here (frozen buyer, settlements switched
 * off) or an unreachable wallet leaves `merchant_completed`: the order exists, so the recovery
 * worker keeps trying — the buyer's money never goes back for a delivered order.
 */
export async function settle(d: PurchaseSagaDeps, sessionId: string): Promise<void> {
  const settled = await withTransaction(d.pool, async (c) => {
    const s = await getSession(c, sessionId, { forUpdate: true });
    if (!s || s.paymentStage !== 'merchant_completed' || s.dealId === null || s.holdId === null || s.reservedAmount === null) return false;
    let res;
    try {
      res = await d.wallet.settle({
        agentId: s.buyerAgentId,
        holdId: s.holdId,
        contractId: s.dealId,
        payeeAgentId: '',
        payeeMerchantDomain: s.merchantDomain,
        controller: 'commerce',
        idempotencyKey: walletKey(sessionId, s.dealId, 'settle'),
      });
    } catch (err) {
      if (isTransient(err)) throw walletUnavailable();
      const refusal = refusalOf(err);
      d.logger.error({ commerce_session_id: sessionId, hold_id: s.holdId, code: refusal.code }, 'purchase settlement refused; retried by the recovery worker');
      throw refusal;
    }
    if (!res.receipt) throw new Error('wallet-ledger answered Settle without a receipt');
    const now = d.clock();
    const purchase: PurchaseRecord = {
      dealId: s.dealId,
      commerceSessionId: sessionId,
      buyerAgentId: s.buyerAgentId,
      merchantDomain: s.merchantDomain,
      amount: s.reservedAmount,
      currency: s.currency,
      receiptId: res.receipt.receiptId,
      receipt: walletReceiptJson(res.receipt),
      orderId: s.orderId,
      completedAt: now,
      origin: s.origin,
    };
    await insertPurchase(c, purchase, s.mandateId, s.listTotal);
    if (await spendReserved(c, s.mandateId, s.reservedAmount, now)) await emitMandateExhausted(c, s.mandateId, now);
    await updatePayment(c, sessionId, { paymentStage: 'settled', status: 'completed', receiptId: purchase.receiptId }, now);
    await emitPurchaseRecorded(c, purchase);
    await emitPaymentOutcome(c, 'completed', sessionId);
    return true;
  });
  if (!settled) return;
  d.notify();
  await crashPoint(d, 'after_settle', sessionId);
}
