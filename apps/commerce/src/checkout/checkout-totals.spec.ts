import { isDomainError } from '@exchange/platform';
import type { UcpCheckout } from '../domain/ucp-types';
import { assertTotalsAddUp, merchantStateOf, moneyOf, savingsOf, totalsAddUp } from './checkout-totals';

const checkout = (totals: UcpCheckout['totals'], currency = 'USD'): UcpCheckout => ({
  id: 'chk_1',
  status: 'ready_for_complete',
  currency,
  totals,
  line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }],
  continue_url: 'https://m.example/checkout/chk_1',
});

describe('checkout totals', () => {
  it('should accept totals whose non-total entries sum to the total', () => {
    expect(totalsAddUp([{ type: 'subtotal', amount: 7000 }, { type: 'discount', amount: -700 }, { type: 'tax', amount: 100 }, { type: 'total', amount: 6400 }])).toBe(true);
    expect(totalsAddUp([{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 7000 }])).toBe(true);
  });

  it('should refuse totals that do not add up, lack a total or have two', () => {
    expect(totalsAddUp([{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 6999 }])).toBe(false);
    expect(totalsAddUp([{ type: 'subtotal', amount: 7000 }])).toBe(false);
    expect(totalsAddUp([{ type: 'subtotal', amount: 0 }, { type: 'total', amount: 0 }, { type: 'total', amount: 0 }])).toBe(false);
  });

  it('should throw 400 totals_mismatch naming the entries', () => {
    try {
      assertTotalsAddUp([{ type: 'subtotal', amount: 10 }, { type: 'total', amount: 11 }]);
      throw new Error('expected a throw');
    } catch (err) {
      expect(isDomainError(err) && err.code).toBe('totals_mismatch');
      expect(isDomainError(err) && err.details).toEqual({ totals: [{ type: 'subtotal', amount: 10 }, { type: 'total', amount: 11 }] });
    }
  });

  it('should read total and list total (before discounts) in micro-units', () => {
    const money = moneyOf(checkout([{ type: 'subtotal', amount: 7000 }, { type: 'items_discount', amount: -500 }, { type: 'discount', amount: -650 }, { type: 'total', amount: 5850 }]));
    expect(money).toEqual({ total: 58_500_000n, listTotal: 70_000_000n });
    expect(savingsOf(money)).toBe(11_500_000n);
  });

  it('should scale by the currency exponent (JPY has none)', () => {
    expect(moneyOf(checkout([{ type: 'subtotal', amount: 1200 }, { type: 'total', amount: 1200 }], 'JPY'))).toEqual({ total: 1_200_000_000n, listTotal: 1_200_000_000n });
  });

  it('should never report negative savings', () => {
    expect(savingsOf({ total: 5n, listTotal: 3n })).toBe(0n);
  });

  it('should refuse a checkout without a single total as a merchant protocol error', () => {
    expect(() => moneyOf(checkout([{ type: 'subtotal', amount: 1 }]))).toThrow(expect.objectContaining({ code: 'merchant_protocol_error' }));
  });

  it('should refuse a merchant currency commerce cannot pay in as a merchant protocol error', () => {
    for (const currency of ['CREDIT', 'usd', 'XXX']) {
      expect(() => moneyOf(checkout([{ type: 'total', amount: 1 }], currency))).toThrow(expect.objectContaining({ code: 'merchant_protocol_error' }));
    }
  });

  it('should derive the session state from a merchant checkout', () => {
    const state = merchantStateOf({ ...checkout([{ type: 'subtotal', amount: 2500 }, { type: 'total', amount: 2500 }]), messages: [{ type: 'info', content: 'hi' }] });
    expect(state).toMatchObject({ merchantCheckoutId: 'chk_1', status: 'ready_for_complete', currency: 'USD', total: 25_000_000n, listTotal: 25_000_000n, continueUrl: 'https://m.example/checkout/chk_1' });
    expect(state.messages).toHaveLength(1);
  });
});
