import { DomainError, errors, formatAmount } from '@exchange/platform';
import { withTransaction } from '@exchange/db';
import { emitPaymentOutcome } from '../events/purchase.events';
import { crashPoint, type PurchaseSagaDeps } from './purchase-deps';
import { isTransient, refusalOf, walletUnavailable } from './purchase-errors';
import { walletKey } from './purchase-keys';
import { getSession } from '../checkout/sessions.repo';
import { addReserved, updatePayment } from './purchase.repo';

/**
 * Step 2: the buyer's wallet hold (controller commerce, no expiry), key `…:hold` so a retry after a
 * crash finds the same hold. The buyer must be active now (identity's answer, not the cache). A
 * definite refusal (insufficient_funds, agent_frozen, unsupported_currency…) gives the reservation
 * back and ends the attempt as `released` with the refusal's code as failure_reason: the buyer may
 * fund the wallet and complete again (a new attempt, new keys — the wallet keeps the refusal with
 * the old key). Unreachable wallet or identity: the attempt stays `reserved` for the recovery worker.
 */
export async function placeHold(d: PurchaseSagaDeps, sessionId: string): Promise<void> {
  let refusal: DomainError | null = null;
  const placed = await withTransaction(d.pool, async (c) => {
    const s = await getSession(c, sessionId, { forUpdate: true });
    if (!s || s.paymentStage !== 'reserved' || s.dealId === null || s.reservedAmount === null) return false;
    let holdId: string;
    try {
      const buyer = await d.agents.current(s.buyerAgentId);
      if (buyer.frozen) throw errors.permissionDenied('agent_frozen', `agent ${s.buyerAgentId} is frozen`, { agent_id: s.buyerAgentId });
      const res = await d.wallet.createHold({
        agentId: s.buyerAgentId,
        amount: formatAmount(s.reservedAmount),
        currency: s.currency,
        expiresAt: undefined,
        reference: s.dealId,
        idempotencyKey: walletKey(sessionId, s.dealId, 'hold'),
        controller: 'commerce',
      });
      if (!res.hold?.holdId) throw new Error('wallet-ledger answered CreateHold without a hold');
      holdId = res.hold.holdId;
    } catch (err) {
      if (isTransient(err)) {
        d.logger.warn({ commerce_session_id: sessionId, err: (err as Error).message }, 'purchase hold not placed yet');
        throw err instanceof DomainError ? err : walletUnavailable();
      }
      refusal = refusalOf(err);
      const now = d.clock();
      await addReserved(c, s.mandateId, -s.reservedAmount, now);
      await updatePayment(c, sessionId, { paymentStage: 'released', failureReason: refusal.code }, now);
      await emitPaymentOutcome(c, 'payment_failed', sessionId);
      return false;
    }
    await updatePayment(c, sessionId, { paymentStage: 'hold_placed', holdId }, d.clock());
    return true;
  });
  if (refusal) {
    d.notify();
    throw refusal;
  }
  if (placed) await crashPoint(d, 'after_hold', sessionId);
}
