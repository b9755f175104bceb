import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@exchange/http-signatures';
import { findSigningKey } from '@exchange/ucp';
import { buyer, cart, pay, startHarness, ucp, type Harness } from './harness';

interface Delivery {
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A local platform endpoint answering the queued statuses in turn (then 200). */
async function receiver(statuses: number[]): Promise<{ url: string; deliveries: Delivery[]; server: Server }> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/ucp/orders`, deliveries, server };
}

async function until(predicate: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

const flat = (headers: IncomingMessage['headers']) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));

describe('sandbox merchant: signed order webhooks', () => {
  let h: Harness | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await h?.merchant.stop();
    await new Promise((r) => server?.close(r));
  });

  async function completeOne(): Promise<string> {
    const created = await h!.call('POST', '/checkout-sessions', cart([['bouquet_roses', 2]], { buyer }));
    const done = await h!.call('POST', `/checkout-sessions/${created.json.id}/complete`, pay());
    expect(done.json.status).toBe('completed');
    return done.json.order.id;
  }

  it('posts the full order, RFC 9421-signed with the profile key, the same id and timestamp on every retry', async () => {
    const r = await receiver([500, 503]);
    server = r.server;
    h = await startHarness({ WEBHOOK_URL: r.url, WEBHOOK_RETRY_BASE_MS: '10' });
    const orderId = await completeOne();
    await until(() => r.deliveries.length >= 3);
    expect(r.deliveries).toHaveLength(3);
    const [first, , last] = r.deliveries;
    expect(last.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(last.headers['webhook-timestamp']).toBe(first.headers['webhook-timestamp']);
    expect(last.headers['webhook-timestamp']).toBe(String(Math.floor(h.clock.now / 1000)));
    const order = JSON.parse(last.body.toString('utf8'));
    expect(order).toMatchObject({ id: orderId, currency: 'USD' });
    expect(ucp.validate('order', order)).toEqual({ valid: true });

    const profile = (await h.call('GET', '/.well-known/ucp')).json;
    const result = await verifyWebhook({
      headers: flat(last.headers),
      bodyBase64: last.body.toString('base64'),
      url: r.url,
      resolveKey: (keyid: string) => findSigningKey(profile, keyid) ?? null,
      now: () => h!.clock.now,
    });
    expect(result).toMatchObject({ valid: true, scheme: 'rfc9421', keyid: h.merchant.signingKey.kid });
    expect(last.headers['ucp-agent']).toBe(`profile="${h.merchant.url}/.well-known/ucp"`);

    // A tampered body no longer verifies.
    const tampered = await verifyWebhook({
      headers: flat(last.headers),
      bodyBase64: Buffer.from(JSON.stringify({ ...order, totals: [] })).toString('base64'),
      url: r.url,
      resolveKey: (keyid: string) => findSigningKey(profile, keyid) ?? null,
    });
    expect(tampered.valid).toBe(false);
  });

  it('gives up after WEBHOOK_MAX_ATTEMPTS', async () => {
    const r = await receiver([500, 500, 500, 500, 500]);
    server = r.server;
    h = await startHarness({ WEBHOOK_URL: r.url, WEBHOOK_RETRY_BASE_MS: '5', WEBHOOK_MAX_ATTEMPTS: '3' });
    await completeOne();
    await until(() => r.deliveries.length >= 3);
    await new Promise((res) => setTimeout(res, 200));
    expect(r.deliveries).toHaveLength(3);
  });

  it('stop() cancels pending retries', async () => {
    const r = await receiver([500, 500, 500]);
    server = r.server;
    h = await startHarness({ WEBHOOK_URL: r.url, WEBHOOK_RETRY_BASE_MS: '60000' });
    await completeOne();
    await until(() => r.deliveries.length >= 1);
    const started = Date.now();
    await h.merchant.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    h = undefined;
    expect(r.deliveries).toHaveLength(1);
  });
});
