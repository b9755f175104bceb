import { DomainError } from '@exchange/platform';
import { withTransaction } from '@exchange/db';
import type { MerchantCallInput, MerchantOutcome, RecordedMessage, UcpOperation } from '../domain/merchant.ports';
import type { UcpCheckout } from '../domain/ucp-types';
import { appendEvidence } from '../evidence/evidence.repo';
import { crashPoint, type PurchaseSagaDeps } from './purchase-deps';
import { merchantFailure, merchantStillCompleting } from './purchase-errors';
import { merchantKey } from './purchase-keys';
import { evidenceOf } from '../checkout/checkout-support.service';
import { getSession } from '../checkout/sessions.repo';
import { attemptPayment, updatePayment } from './purchase.repo';
import { judgeComplete, orderIdOf, type CompleteVerdict } from './purchase-steps';

/** complete_in_progress: how often and how far apart get_checkout asks before leaving it to recovery (tests shorten the interval). */
export const POLL = { times: 5, intervalMs: 300 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Step 3, under the session's row lock: complete_checkout at the merchant with the attempt's
 * Idempotency-Key (a resumed step repeats it), every message exchanged kept as evidence in the
 * step's transaction. completed → `merchant_completed` (order id kept). A definite no → the
 * failure_reason is committed and the hold is released (release.step.ts). No answer (timeout,
 * network, 5xx) → one get_checkout: completed goes on; otherwise a best-effort cancel so the
 * merchant cannot complete later, then the release. Still complete_in_progress after polling →
 * stays `hold_placed` for the recovery worker. Returns the error to give the caller after the
 * release, or null when the merchant completed.
 */
export async function completeAtMerchant(d: PurchaseSagaDeps, sessionId: string): Promise<{ failure: DomainError | null; release: boolean }> {
  const result = await withTransaction(d.pool, async (c) => {
    const s = await getSession(c, sessionId, { forUpdate: true });
    if (!s || s.paymentStage !== 'hold_placed' || s.failureReason !== null || s.dealId === null) return { failure: null, release: false, completed: false };
    const dealId = s.dealId;
    const messages: RecordedMessage[] = [];
    const call = async (operation: UcpOperation, input: MerchantCallInput): Promise<MerchantOutcome> => {
      const r = await d.merchants.call(s.merchantDomain, operation, { checkoutId: s.merchantCheckoutId, ...input });
      messages.push(...r.messages);
      return r.outcome;
    };
    // Reads after the complete are best effort: a throw (profile gone) is no answer.
    const read = async (): Promise<CompleteVerdict | null> => {
      try {
        return judgeComplete(await call('get_checkout', {}));
      } catch (err) {
        d.logger.warn({ commerce_session_id: sessionId, err: (err as Error).message }, 'merchant get_checkout failed');
        return null;
      }
    };

    const payment = await attemptPayment(c, sessionId, dealId);
    let verdict: CompleteVerdict;
    try {
      verdict = judgeComplete(await call('complete_checkout', { body: payment ? { payment } : {}, idempotencyKey: merchantKey(sessionId, dealId, 'complete') }));
    } catch (err) {
      // Nothing was sent (bad payment body, profile unreachable): a definite no of our own.
      if (!(err instanceof DomainError)) throw err;
      verdict = { kind: 'refused', code: 'checkout_not_ready', reason: err.code, messages: [] };
      const now = d.clock();
      await appendEvidence(c, sessionId, evidenceOf(messages), now);
      await updatePayment(c, sessionId, { failureReason: err.code }, now);
      return { failure: err, release: true, completed: false };
    }
    let canceled: UcpCheckout | null = null;
    if (verdict.kind === 'uncertain') {
      const seen = await read();
      if (seen?.kind === 'completed' || seen?.kind === 'in_progress') verdict = seen;
      else canceled = await cancelQuietly(d, sessionId, () => call('cancel_checkout', { body: {}, idempotencyKey: merchantKey(sessionId, dealId, 'cancel') }));
    }
    for (let i = 0; verdict.kind === 'in_progress' && i < POLL.times; i++) {
      await sleep(POLL.intervalMs);
      const seen = await read();
      if (seen && seen.kind !== 'uncertain') verdict = seen;
    }

    const now = d.clock();
    await appendEvidence(c, sessionId, evidenceOf(messages), now);
    switch (verdict.kind) {
      case 'completed':
        // complete_in_progress until settled: the merchant is done, the exchange's payment is not.
        await updatePayment(c, sessionId, { paymentStage: 'merchant_completed', status: 'complete_in_progress', merchantCheckout: verdict.checkout, orderId: orderIdOf(verdict.checkout) }, now);
        return { failure: null, release: false, completed: true };
      case 'in_progress':
        await updatePayment(c, sessionId, { status: 'complete_in_progress', merchantCheckout: verdict.checkout }, now);
        return { failure: merchantStillCompleting(), release: false, completed: false };
      case 'refused':
        await updatePayment(c, sessionId, { failureReason: verdict.reason, ...(verdict.checkout ? { merchantCheckout: verdict.checkout, status: verdict.checkout.status } : {}) }, now);
        return { failure: merchantFailure(verdict.code, verdict.reason, verdict.messages, verdict.checkout?.status), release: true, completed: false };
      case 'uncertain':
        await updatePayment(c, sessionId, { failureReason: verdict.reason, ...(canceled ? { merchantCheckout: canceled, status: canceled.status } : {}) }, now);
        return { failure: merchantFailure(verdict.code, verdict.reason), release: true, completed: false };
    }
  });
  if (result.completed) await crashPoint(d, 'after_merchant_complete', sessionId);
  return { failure: result.failure, release: result.release };
}

/** The merchant's canceled checkout, or null when the cancel was not confirmed (logged). */
async function cancelQuietly(d: PurchaseSagaDeps, sessionId: string, cancel: () => Promise<MerchantOutcome>): Promise<UcpCheckout | null> {
  try {
    const outcome = await cancel();
    if (outcome.kind === 'checkout') return outcome.checkout;
    d.logger.warn({ commerce_session_id: sessionId, outcome: outcome.kind }, 'merchant cancel after an unanswered complete did not confirm');
  } catch (err) {
    d.logger.warn({ commerce_session_id: sessionId, err: (err as Error).message }, 'merchant cancel after an unanswered complete failed');
  }
  return null;
}
