import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signHttpMessage } from '@exchange/http-signatures';
import { buildUcpAgentHeader } from '@exchange/ucp';
import { status } from '@grpc/grpc-js';
import { startFixtureServer, json, type FixtureRequest, type FixtureServer } from './support/merchants-fixture-server';
import { EXCHANGE_PUBLIC_URL, grpcFailure, startMerchantsHarness, type MerchantsHarness } from './support/merchants-harness';
import { B13_PRIVATE_JWK, businessProfile } from './support/merchants-profiles';
import { SANDBOX_DOMAIN, startSandboxMerchantProcess, type SandboxMerchantProcess } from './support/merchants-sandbox';

// VerifyWebhook over gRPC: a real order webhook the sandbox merchant signed (RFC 9421, its profile
// key), a merchant signing with the RFC 9421 B.1.3 test key, and the Standard Webhooks vector.

const SW = JSON.parse(readFileSync(join(__dirname, '../../../libs/http-signatures/test/fixtures/standard-webhooks/vectors.json'), 'utf8')).vectors[0];
const WEBHOOK_URL = `${EXCHANGE_PUBLIC_URL}/v1/commerce/ucp/webhooks/orders`;

let h: MerchantsHarness;
let sandbox: SandboxMerchantProcess;
let fx: FixtureServer;
let delivery: FixtureRequest;

const headersOf = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));

async function until<T>(get: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  fx = await startFixtureServer();
  fx.on('POST /hooks/orders', json(200, { ok: true }));
  fx.on('/signer/.well-known/ucp', json(200, businessProfile(`${fx.url}/signer`)));
  sandbox = await startSandboxMerchantProcess({ WEBHOOK_URL: `${fx.url}/hooks/orders` });
  h = await startMerchantsHarness({ directory: sandbox.directory({ 'signer.example': `${fx.url}/signer` }) });

  // A purchase at the sandbox merchant: its order webhook is the real signed delivery to check.
  const post = (path: string, body: unknown) =>
    fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ id: string; status: string }>);
  const created = await post('/checkout-sessions', { line_items: [{ item: { id: 'bouquet_tulips' }, quantity: 1 }], buyer: { email: 'ada@example.com' } });
  const payment = { instruments: [{ id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', credential: { type: 'token', token: 'success_token' } }] };
  expect((await post(`/checkout-sessions/${created.id}/complete`, { payment })).status).toBe('completed');
  delivery = await until(() => fx.hits('/hooks/orders')[0]);
}, 120_000);

afterAll(async () => {
  await h?.close();
  await Promise.all([sandbox?.stop(), fx?.close()]);
});

describe('VerifyWebhook: UCP (RFC 9421)', () => {
  it('a real order webhook from the sandbox merchant verifies with the key of the profile its UCP-Agent names', async () => {
    expect(delivery.headers['ucp-agent']).toBe(`profile="${sandbox.profileUrl}"`);
    const res = await h.client.verifyWebhook({ headers: headersOf(delivery.headers), body: delivery.body, method: 'POST', url: `${fx.url}/hooks/orders` });
    const profile = JSON.parse((await h.client.getMerchantProfile({ merchantDomain: SANDBOX_DOMAIN, refresh: false })).profileJson);
    expect(res).toEqual({ valid: true, scheme: 'ucp_rfc9421', keyId: profile.signing_keys[0].kid, merchantDomain: SANDBOX_DOMAIN });
  });

  it('a tampered body → digest_mismatch; the wrong delivery URL (default: our webhook_url) → signature_invalid', async () => {
    const tampered = Buffer.from(delivery.body.toString('utf8').replace('"currency":"USD"', '"currency":"EUR"'));
    expect(tampered.equals(delivery.body)).toBe(false);
    expect(await h.client.verifyWebhook({ headers: headersOf(delivery.headers), body: tampered, url: `${fx.url}/hooks/orders` })).toMatchObject({
      valid: false,
      scheme: 'ucp_rfc9421',
      reason: 'digest_mismatch',
      merchantDomain: SANDBOX_DOMAIN,
    });
    expect(await h.client.verifyWebhook({ headers: headersOf(delivery.headers), body: delivery.body })).toMatchObject({ valid: false, reason: 'signature_invalid' });
  });

  it('a merchant signing with the RFC 9421 B.1.3 key (test-key-ecc-p256) verifies; an unknown keyid is key_not_found', async () => {
    const sign = async (keyid: string) => {
      const body = JSON.stringify({ id: 'ord_9', checkout_id: 'cs_9' });
      const headers = await signHttpMessage(
        { method: 'POST', url: WEBHOOK_URL, headers: { 'content-type': 'application/json', 'ucp-agent': buildUcpAgentHeader(`${fx.url}/signer/.well-known/ucp`) }, body },
        { key: createPrivateKey({ key: B13_PRIVATE_JWK, format: 'jwk' }), keyid, now: h.clock.now },
      );
      return { headers: Object.entries(headers).map(([name, value]) => ({ name, value: String(value) })), body: Buffer.from(body) };
    };
    expect(await h.client.verifyWebhook(await sign('test-key-ecc-p256'))).toEqual({ valid: true, scheme: 'ucp_rfc9421', keyId: 'test-key-ecc-p256', merchantDomain: 'signer.example' });
    expect(await h.client.verifyWebhook(await sign('another-key'))).toMatchObject({ valid: false, reason: 'key_not_found', merchantDomain: 'signer.example' });
  });
});

describe('VerifyWebhook: Standard Webhooks and input', () => {
  const vector = () => ({
    headers: headersOf({ 'webhook-id': SW.webhook_id, 'webhook-timestamp': String(SW.webhook_timestamp), 'webhook-signature': SW.expected_webhook_signature }),
    body: Buffer.from(SW.payload),
    secret: SW.secret as string,
  });

  it('verifies the Standard Webhooks v1 vector within ±300 s of its timestamp', async () => {
    h.clock.set(new Date((SW.webhook_timestamp + 120) * 1000));
    expect(await h.client.verifyWebhook(vector())).toEqual({ valid: true, scheme: 'standard_webhooks_v1' });
    h.clock.set(new Date((SW.webhook_timestamp + 400) * 1000));
    expect(await h.client.verifyWebhook(vector())).toMatchObject({ valid: false, scheme: 'standard_webhooks_v1', reason: 'timestamp_out_of_window' });
    h.clock.set(new Date());
  });

  it('no signature is a result (none); a malformed field is a 400', async () => {
    expect(await h.client.verifyWebhook({ headers: headersOf({ 'content-type': 'application/json' }), body: Buffer.from('{}') })).toEqual({ valid: false, scheme: 'none', reason: 'signature_missing' });
    expect(await grpcFailure(h.client.verifyWebhook({ ...vector(), url: 'ftp://x' }))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed' });
  });
});
