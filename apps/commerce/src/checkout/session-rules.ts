import { createHash } from 'node:crypto';
import { errors } from '@exchange/platform';
import type { SpendAttempt } from '../mandates/mandate.model';
import type { UcpCheckout } from '../domain/ucp-types';
import { isTerminal, paymentInFlight, type Actor, type CheckoutSessionRecord } from './session.model';

// Who may do what to a session, and in which state (pure; the services call these under the
// session's row lock).

type SessionView = Pick<CheckoutSessionRecord, 'commerceSessionId' | 'buyerAgentId' | 'status' | 'paymentStage' | 'mode' | 'approval' | 'approvalReason' | 'merchantCheckout'>;

/** Only the session's buyer changes it (403 not_session_buyer). */
export function assertBuyer(s: Pick<SessionView, 'buyerAgentId'>, actor: Actor): void {
  if (actor.operator || actor.agentId !== s.buyerAgentId) throw errors.permissionDenied('not_session_buyer', "only the checkout session's buyer may do this");
}

/** The buyer or the operator reads it (403 not_session_buyer). */
export function assertReader(s: Pick<SessionView, 'buyerAgentId'>, actor: Actor): void {
  if (actor.operator) return;
  assertBuyer(s, actor);
}

/** Update, discount and cancel: not terminal, no payment moving (409 invalid_state). */
export function assertModifiable(s: SessionView, wanted: string): void {
  if (isTerminal(s.status)) throw errors.invalidState('checkout session', s.status, wanted);
  if (paymentInFlight(s.paymentStage)) throw errors.invalidState('checkout session', `paying (${s.paymentStage})`, wanted);
}

/**
 * Complete's checks before the saga: 'replay' for a session already completed (its purchase is
 * the answer), else the session may be paid for now or a DomainError says why not.
 */
export function completeDecision(s: SessionView): 'replay' | 'proceed' {
  if (s.mode === 'shadow') throw errors.invalidState('shadow checkout session', s.status, 'completed');
  if (s.status === 'completed') return 'replay';
  if (s.status === 'canceled') throw errors.invalidState('checkout session', s.status, 'completed');
  // A complete already moving money is resumed by the saga (same session, same steps).
  if (paymentInFlight(s.paymentStage)) return 'proceed';
  if (s.approval === 'pending') throw errors.failedPrecondition('approval_required', "the checkout waits for the mandate signer's approval", { reason: s.approvalReason });
  if (s.approval === 'denied') throw errors.permissionDenied('approval_denied', "the mandate's signer denied this checkout");
  if (s.status !== 'ready_for_complete') {
    throw errors.failedPrecondition('checkout_not_ready', `the merchant's checkout is ${s.status}, not ready_for_complete`, {
      status: s.status,
      messages: s.merchantCheckout.messages ?? [],
    });
  }
  return 'proceed';
}

/** The mandate question for a merchant checkout: lines by sku (item.id) and category (item.category when a string). */
export function spendAttemptOf(
  s: { buyerAgentId: string; merchantDomain: string },
  checkout: Pick<UcpCheckout, 'line_items' | 'currency'>,
  total: bigint,
  facts: { knownMerchant: boolean; spentToday: bigint; now: Date },
): SpendAttempt {
  return {
    buyerAgentId: s.buyerAgentId,
    merchantDomain: s.merchantDomain,
    currency: checkout.currency,
    total,
    lines: checkout.line_items.map((l) => ({ sku: l.item.id, category: typeof l.item['category'] === 'string' ? l.item['category'] : null })),
    now: facts.now,
    knownMerchant: facts.knownMerchant,
    spentToday: facts.spentToday,
  };
}

/** UTC midnight of `now` (a mandate's daily limit counts from there). */
export function utcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * The merchant Idempotency-Key (UCP wants a UUID) of one step, derived from the parts that make
 * it the same step: a retried request sends the same key, so the merchant answers it once.
 */
export function merchantKey(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000'), 'utf8').digest('hex');
  // Shaped as a version-8 (custom) RFC 9562 UUID.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The payment sent on complete when the buyer names none (sandbox): the first handler the
 * merchant's checkout advertises, with the sandbox merchant's test token instrument.
 */
export function defaultPayment(checkout: UcpCheckout): Record<string, unknown> | null {
  const handlers = (checkout['ucp'] as { payment_handlers?: Record<string, Array<{ id?: unknown }>> } | undefined)?.payment_handlers ?? {};
  for (const list of Object.values(handlers)) {
    const id = Array.isArray(list) ? list.find((h) => typeof h?.id === 'string')?.id : undefined;
    if (typeof id === 'string') {
      return { instruments: [{ id: 'exchange_sandbox_instrument', handler_id: id, type: 'card', selected: true, credential: { type: 'token', token: 'success_token' } }] };
    }
  }
  return null;
}
