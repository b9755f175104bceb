import { createUcpValidator } from '@exchange/ucp';
import { headerMap, readOrderDelivery, type WebhookDelivery } from './order-delivery';

const validator = createUcpValidator();

const order = {
  ucp: { version: '2026-04-08', capabilities: { 'dev.ucp.shopping.order': [{ version: '2026-04-08' }] } },
  id: 'ord_1',
  checkout_id: 'chk_1',
  permalink_url: 'https://m.example/orders/ord_1',
  line_items: [
    { id: 'li_1', item: { id: 'rose', title: 'Rose', price: 3500 }, quantity: { original: 2, total: 2, fulfilled: 0 }, totals: [{ type: 'total', amount: 7000 }], status: 'processing' },
  ],
  fulfillment: { expectations: [], events: [] },
  currency: 'USD',
  totals: [
    { type: 'subtotal', amount: 7000 },
    { type: 'total', amount: 7000 },
  ],
};

function delivery(overrides: Omit<Partial<WebhookDelivery>, 'body'> & { body?: unknown } = {}): WebhookDelivery {
  const body = overrides.body instanceof Uint8Array ? overrides.body : Buffer.from(JSON.stringify(overrides.body ?? order));
  return {
    headers: overrides.headers ?? [{ name: 'Webhook-Id', value: 'wh_123' }, { name: 'Content-Type', value: 'application/json' }],
    body,
    method: 'POST',
    url: 'https://exchange.example/v1/commerce/ucp/webhooks/orders',
  };
}

describe('order webhook delivery', () => {
  it('reads the webhook id and the order of a valid delivery', () => {
    const read = readOrderDelivery(delivery(), validator);
    expect(read).toMatchObject({ ok: true, webhookId: 'wh_123', order: { id: 'ord_1', checkout_id: 'chk_1' } });
  });

  it('refuses a missing or dotted webhook id, a repeated header, non-JSON and a non-order body', () => {
    expect(readOrderDelivery(delivery({ headers: [] }), validator)).toEqual({ ok: false, reason: 'webhook_id_missing' });
    expect(readOrderDelivery(delivery({ headers: [{ name: 'webhook-id', value: 'a.b' }] }), validator)).toEqual({ ok: false, reason: 'webhook_id_missing' });
    expect(
      readOrderDelivery(delivery({ headers: [{ name: 'webhook-id', value: 'a' }, { name: 'Webhook-Id', value: 'b' }] }), validator),
    ).toEqual({ ok: false, reason: 'header_repeated' });
    expect(readOrderDelivery(delivery({ body: Buffer.from('{not json') }), validator)).toEqual({ ok: false, reason: 'body_not_json' });
    expect(readOrderDelivery(delivery({ body: { id: 'ord_1' } }), validator)).toEqual({ ok: false, reason: 'order_schema_invalid' });
  });

  it('maps headers by lower-case name', () => {
    expect(headerMap([{ name: 'Webhook-Id', value: 'x' }])).toEqual({ 'webhook-id': 'x' });
  });
});
