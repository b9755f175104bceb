import type { MerchantOutcome } from '../domain/merchant.ports';
import type { UcpCheckout, UcpMessage } from '../domain/ucp-types';
import type { CheckoutSessionRecord } from '../checkout/session.model';

// The pure decisions of the purchase saga: which step comes next from the stored stage, what a
// merchant's answer to complete means, and the shapes stored for a purchase.

export type SagaStep = 'reserve' | 'hold' | 'merchant' | 'release' | 'settle' | 'done' | 'stopped';

/**
 * The step to run from the stored state. `none` and `released` start a new attempt (reserve) only
 * for a buyer's complete; the recovery worker (`resuming`) never starts one.
 */
export function nextStep(s: Pick<CheckoutSessionRecord, 'paymentStage' | 'failureReason'>, resuming: boolean): SagaStep {
  switch (s.paymentStage) {
    case 'none':
    case 'released':
      return resuming ? 'stopped' : 'reserve';
    case 'reserved':
      return 'hold';
    case 'hold_placed':
      // A merchant refusal is recorded before the hold goes back: finish the release, never complete again.
      return s.failureReason === null ? 'merchant' : 'release';
    case 'merchant_completed':
      return 'settle';
    case 'settled':
      return 'done';
  }
}

/** What the merchant's answer to complete_checkout (or a later get_checkout) means for the payment. */
export type CompleteVerdict =
  | { kind: 'completed'; checkout: UcpCheckout }
  /** complete_in_progress: the merchant finishes later (poll get_checkout). */
  | { kind: 'in_progress'; checkout: UcpCheckout }
  /** A definite no (declined payment, not ready, outside the protocol): release the hold. */
  | { kind: 'refused'; code: 'checkout_not_ready' | 'merchant_protocol_error'; reason: string; messages: UcpMessage[]; checkout?: UcpCheckout }
  /** No answer we can trust (timeout, network, 5xx): it may have completed — ask before releasing. */
  | { kind: 'uncertain'; code: 'merchant_timeout' | 'merchant_unavailable'; reason: string };

const messageCodes = (messages: UcpMessage[]): string =>
  messages.filter((m) => m.type === 'error').map((m) => m.code ?? 'error').join(',');

export function judgeComplete(outcome: MerchantOutcome): CompleteVerdict {
  switch (outcome.kind) {
    case 'checkout': {
      const checkout = outcome.checkout;
      if (checkout.status === 'completed') return { kind: 'completed', checkout };
      if (checkout.status === 'complete_in_progress') return { kind: 'in_progress', checkout };
      const messages = checkout.messages ?? [];
      return { kind: 'refused', code: 'checkout_not_ready', reason: messageCodes(messages) || `status ${checkout.status}`, messages, checkout };
    }
    case 'business_error':
      return { kind: 'refused', code: 'checkout_not_ready', reason: messageCodes(outcome.messages) || 'business_error', messages: outcome.messages };
    case 'protocol_error':
      return { kind: 'refused', code: 'merchant_protocol_error', reason: `merchant_protocol_error: ${outcome.reason}`, messages: [] };
    case 'unavailable':
      return { kind: 'uncertain', code: 'merchant_unavailable', reason: `merchant_unavailable: ${outcome.reason}` };
    case 'timeout':
      return { kind: 'uncertain', code: 'merchant_timeout', reason: 'merchant_timeout' };
  }
}

/** The lines the mandate rules look at: UCP item.id as sku, item.category when the merchant gives one. */
export function spendLines(checkout: Record<string, unknown>): Array<{ sku: string; category: string | null }> {
  const items = Array.isArray(checkout['line_items']) ? (checkout['line_items'] as Array<Record<string, unknown>>) : [];
  return items.map((line) => {
    const item = (line?.['item'] ?? {}) as Record<string, unknown>;
    return { sku: String(item['id'] ?? ''), category: typeof item['category'] === 'string' ? item['category'] : null };
  });
}

/** The merchant order id of a completed checkout, when it names one. */
export function orderIdOf(checkout: UcpCheckout): string | null {
  return typeof checkout.order?.id === 'string' && checkout.order.id !== '' ? checkout.order.id : null;
}
