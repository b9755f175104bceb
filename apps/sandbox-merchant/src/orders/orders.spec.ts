import { createUcpValidator } from '@exchange/ucp';
import type { CheckoutSession, Pricing } from '../checkout/checkout';
import { orderEntity } from './order';
import { backoffMs } from './webhook.client';

const pricing: Pricing = {
  lineItems: [{ id: 'li_1', item: { id: 'rose', title: 'Rose', price: 3500 }, quantity: 2, totals: [{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 7000 }] }],
  totals: [{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 7000 }],
  total: 7000,
  applied: [],
  messages: [],
};
const session: CheckoutSession = {
  id: 'chk_1',
  currency: 'USD',
  createdAt: 0,
  expiresAt: 1,
  lines: [{ itemId: 'rose', quantity: 2 }],
  state: 'completed',
  order: { id: 'ord_1', label: '#1001', permalink_url: 'https://m.example/orders/ord_1' },
};

describe('order entity', () => {
  it('is a valid UCP order (the webhook body)', () => {
    const order = orderEntity(session, pricing, Date.parse('2026-11-24T00:00:00Z'));
    expect(createUcpValidator().validate('order', order)).toEqual({ valid: true });
    expect(order).toMatchObject({ id: 'ord_1', checkout_id: 'chk_1', line_items: [expect.objectContaining({ quantity: { original: 2, total: 2, fulfilled: 0 }, status: 'processing' })] });
  });

  it('needs an order on the session', () => {
    expect(() => orderEntity({ ...session, order: undefined }, pricing, 0)).toThrow(/no order/);
  });
});

describe('webhook backoff', () => {
  it('doubles from the base and is capped at a minute', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 1000))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(20, 1000)).toBe(60_000);
  });
});
