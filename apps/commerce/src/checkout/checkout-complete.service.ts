import { errors } from '@exchange/platform';
import type { CommerceRuntime } from '../service/runtime';
import { PurchaseSaga } from '../saga/purchase.saga';
import { parseOptionalObject } from './checkout-input';
import { assertTotalsAddUp } from './checkout-totals';
import { loadMandate, loadSession, mandateVerdict, type CheckoutDeps } from './checkout-support.service';
import { assertBuyer, completeDecision, defaultPayment } from './session-rules';
import type { Actor, CheckoutSessionRecord, PurchaseRecord } from './session.model';
import { getPurchase } from './sessions.repo';
import { bindIntent, intentAllowsSession } from './intent-check.service';

export type CompleteDeps = CheckoutDeps & Pick<CommerceRuntime, 'wallet' | 'faults'>;

export interface CompleteAnswer {
  session: CheckoutSessionRecord;
  purchase: PurchaseRecord | null;
  replayed: boolean;
}

/**
 * CompleteCheckout: checkout's pre-checks (buyer, mode, status, approval, totals invariant, the
 * mandate as a cheap first look, the session's intent), then the purchase saga moves the money (it re-checks the
 * mandate under lock). A completed session answers its purchase again.
 */
export class CheckoutCompleteService {
  constructor(private readonly deps: CompleteDeps) {}

  async complete(input: { actor: Actor; sessionId: string; paymentJson?: string }): Promise<CompleteAnswer> {
    const s = await loadSession(this.deps.pool, input.sessionId);
    assertBuyer(s, input.actor);
    if (completeDecision(s) === 'replay') return { session: s, purchase: await getPurchase(this.deps.pool, s.commerceSessionId), replayed: true };
    const fresh = s.paymentStage === 'none' || s.paymentStage === 'released';
    let payment: Record<string, unknown> | null = null;
    if (fresh) {
      // UCP: a platform must not complete a checkout whose totals do not add up.
      assertTotalsAddUp(s.merchantCheckout.totals);
      await mandateVerdict(this.deps.pool, await loadMandate(this.deps.pool, s.mandateId), s, s.merchantCheckout, s.total, this.deps.clock());
      // The intent never changes once made, so this look before the saga is the whole check (expiry included).
      intentAllowsSession(await bindIntent(this.deps, s.intentId, s.merchantDomain), s, s.merchantCheckout, s.total, this.deps.clock());
      payment = this.paymentFor(s, input.paymentJson);
    }
    const saga = new PurchaseSaga({
      pool: this.deps.pool, wallet: this.deps.wallet, merchants: this.deps.merchants, agents: this.deps.agents,
      clock: this.deps.clock, logger: this.deps.logger, notify: this.deps.notify, faults: this.deps.faults,
    });
    const { purchase } = await saga.complete({ sessionId: s.commerceSessionId, payment });
    const session = await loadSession(this.deps.pool, s.commerceSessionId);
    return { session, purchase: purchase ?? (await getPurchase(this.deps.pool, s.commerceSessionId)), replayed: false };
  }

  /** The buyer's instrument, or (sandbox) the merchant's first handler with its test token. */
  private paymentFor(s: CheckoutSessionRecord, paymentJson: string | undefined): Record<string, unknown> {
    const given = parseOptionalObject('payment', paymentJson);
    if (given) return given;
    const fallback = this.deps.exchangeEnv === 'sandbox' ? defaultPayment(s.merchantCheckout) : null;
    if (!fallback) throw errors.invalidArgument('validation_failed', 'payment_json is required: no default payment instrument for this merchant', { field: 'payment_json' });
    return fallback;
  }
}
