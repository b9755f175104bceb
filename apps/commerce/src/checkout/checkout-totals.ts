import { errors } from '@exchange/platform';
import { currencyExponent, minorToMicro } from '../domain/minor-units';
import type { UcpCheckout, UcpTotal } from '../domain/ucp-types';
import type { MerchantState } from './session.model';

// The money of a merchant's checkout, read from its UCP `totals` (integer minor units) into
// exchange micro-units. UCP: exactly one `total`; `discount` and `items_discount` are negative;
// the non-`total` entries (subtotal, discount, items_discount, fulfillment, tax, fee…) sum to it.

const DISCOUNT_TYPES = new Set(['discount', 'items_discount']);

function totalEntry(totals: readonly UcpTotal[]): UcpTotal | undefined {
  const found = totals.filter((t) => t.type === 'total');
  return found.length === 1 ? found[0] : undefined;
}

/** Whether the totals keep UCP's invariant (a platform must not complete a checkout that breaks it). */
export function totalsAddUp(totals: readonly UcpTotal[]): boolean {
  const total = totalEntry(totals);
  if (!total) return false;
  const sum = totals.filter((t) => t.type !== 'total').reduce((s, t) => s + BigInt(t.amount), 0n);
  return sum === BigInt(total.amount);
}

/** 400 totals_mismatch unless the totals add up. */
export function assertTotalsAddUp(totals: readonly UcpTotal[]): void {
  if (totalsAddUp(totals)) return;
  const entries = totals.map((t) => ({ type: t.type, amount: t.amount }));
  throw errors.invalidArgument('totals_mismatch', "the merchant's totals do not add up: the checkout cannot be completed", { totals: entries });
}

/** The checkout's `total` and its total before discounts (total + |discount| + |items_discount|), in micro-units. */
export function moneyOf(checkout: Pick<UcpCheckout, 'totals' | 'currency'>): { total: bigint; listTotal: bigint } {
  const total = totalEntry(checkout.totals);
  if (!total) throw errors.unavailable('merchant_protocol_error', 'the merchant checkout has no single `total` entry');
  // The merchant chose the currency: one commerce cannot pay in is the merchant's protocol fault.
  if (currencyExponent(checkout.currency) === undefined) {
    throw errors.unavailable('merchant_protocol_error', `the merchant checkout is in ${checkout.currency}, not an ISO 4217 currency commerce can pay in`);
  }
  const discounts = checkout.totals.filter((t) => DISCOUNT_TYPES.has(t.type)).reduce((s, t) => s + Math.abs(t.amount), 0);
  return { total: minorToMicro(total.amount, checkout.currency), listTotal: minorToMicro(total.amount + discounts, checkout.currency) };
}

/** list_total − total, never negative. */
export function savingsOf(s: { total: bigint; listTotal: bigint }): bigint {
  return s.listTotal > s.total ? s.listTotal - s.total : 0n;
}

/** The session fields a merchant checkout answer sets. */
export function merchantStateOf(checkout: UcpCheckout): MerchantState {
  const { total, listTotal } = moneyOf(checkout);
  return {
    merchantCheckoutId: checkout.id,
    status: checkout.status,
    currency: checkout.currency,
    total,
    listTotal,
    merchantCheckout: checkout,
    continueUrl: typeof checkout.continue_url === 'string' ? checkout.continue_url : null,
    messages: checkout.messages ?? [],
  };
}
