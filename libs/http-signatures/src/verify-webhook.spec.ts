import { generateKeyPairSync } from 'node:crypto';
import { signHttpMessage } from './rfc9421-sign';
import { generateStandardWebhookKeyPair, generateStandardWebhookSecret, signStandardWebhook } from './standard-webhooks';
import { verifyWebhook, type VerifyWebhookInput } from './verify-webhook';

const T = 1_800_000_000;
const now = () => T * 1000;
const merchant = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const merchantJwk = { ...merchant.publicKey.export({ format: 'jwk' }), kid: 'merchant-2026', use: 'sig', alg: 'ES256' };
const WEBHOOK_URL = 'https://exchange.example/v1/commerce/webhooks/ucp';
const order = JSON.stringify({ id: 'ord_1', checkout_id: 'cs_1', totals: [] });

/** A UCP order webhook as the sandbox merchant sends it: Webhook-Id/Timestamp plus an RFC 9421 signature. */
async function ucpDelivery(body = order) {
  const headers = await signHttpMessage(
    {
      method: 'POST',
      url: WEBHOOK_URL,
      headers: {
        'content-type': 'application/json',
        'ucp-agent': 'profile="https://merchant.example/.well-known/ucp"',
        'webhook-id': 'wh_1',
        'webhook-timestamp': String(T),
      },
      body,
    },
    { key: merchant.privateKey, keyid: 'merchant-2026', now, components: ['@method', '@authority', '@path', 'content-digest', 'content-type'] },
  );
  return { headers, bodyBase64: Buffer.from(body).toString('base64') };
}

const ucpInput = async (extra: Partial<VerifyWebhookInput> = {}): Promise<VerifyWebhookInput> => ({
  ...(await ucpDelivery()),
  url: WEBHOOK_URL,
  resolveKey: (kid, { headers }) => (kid === 'merchant-2026' && String(headers['ucp-agent']).includes('merchant.example') ? merchantJwk : null),
  now,
  ...extra,
});

describe('verifyWebhook: UCP (RFC 9421 + Content-Digest)', () => {
  it('accepts a signed order webhook, the key found by keyid through the resolver', async () => {
    await expect(verifyWebhook(await ucpInput())).resolves.toEqual({ valid: true, scheme: 'rfc9421', keyid: 'merchant-2026' });
  });

  it('gives the UCP reasons: digest_mismatch, unknown_key, bad_signature, key_lookup_failed', async () => {
    const tampered = { ...(await ucpInput()), bodyBase64: Buffer.from(order.replace('ord_1', 'ord_2')).toString('base64') };
    await expect(verifyWebhook(tampered)).resolves.toMatchObject({ valid: false, scheme: 'rfc9421', reason: 'digest_mismatch' });
    await expect(verifyWebhook(await ucpInput({ resolveKey: () => null }))).resolves.toMatchObject({ scheme: 'rfc9421', reason: 'unknown_key' });
    const impostor = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    await expect(verifyWebhook(await ucpInput({ resolveKey: () => impostor }))).resolves.toMatchObject({ reason: 'bad_signature' });
    await expect(verifyWebhook(await ucpInput({ url: 'https://elsewhere.example/v1/commerce/webhooks/ucp' }))).resolves.toMatchObject({ reason: 'bad_signature' });
    const down = () => {
      throw new Error('profile_unreachable');
    };
    await expect(verifyWebhook(await ucpInput({ resolveKey: down }))).resolves.toMatchObject({ reason: 'key_lookup_failed' });
    await expect(verifyWebhook(await ucpInput({ resolveKey: undefined }))).resolves.toMatchObject({ reason: 'unknown_key' });
  });

  it('requires the UCP components and public-key algorithms by default', async () => {
    const body = order;
    const headers = await signHttpMessage(
      { method: 'POST', url: WEBHOOK_URL, headers: { 'content-type': 'application/json', 'ucp-agent': 'profile="https://merchant.example/.well-known/ucp"' }, body },
      { key: merchant.privateKey, keyid: 'merchant-2026', now, components: ['@method', 'content-digest'] },
    );
    const input = await ucpInput({ headers, bodyBase64: Buffer.from(body).toString('base64') });
    await expect(verifyWebhook(input)).resolves.toMatchObject({ reason: 'component_not_covered', detail: 'not signed: @authority, @path, content-type' });
    await expect(verifyWebhook({ ...input, requiredComponents: ['@method'] })).resolves.toMatchObject({ valid: true });
    const hmac = { kty: 'oct', k: Buffer.alloc(32, 7).toString('base64url') };
    const hmacHeaders = await signHttpMessage({ method: 'POST', url: WEBHOOK_URL, headers: { 'content-type': 'application/json' }, body }, { key: hmac, keyid: 'merchant-2026', now });
    await expect(verifyWebhook({ ...input, headers: hmacHeaders, resolveKey: () => hmac })).resolves.toMatchObject({ reason: 'unsupported_algorithm' });
  });

  it('needs the delivery URL when @authority or @path is signed', async () => {
    await expect(verifyWebhook(await ucpInput({ url: undefined }))).resolves.toMatchObject({ reason: 'missing_component' });
    await expect(verifyWebhook(await ucpInput({ url: 'not a url' }))).resolves.toMatchObject({ reason: 'invalid_input' });
  });
});

describe('verifyWebhook: Standard Webhooks', () => {
  const body = '{"type":"payment.succeeded"}';
  const bodyBase64 = Buffer.from(body).toString('base64');

  it('accepts v1 and v1a with the sender keys, ±300 s', async () => {
    const secret = generateStandardWebhookSecret();
    const pair = generateStandardWebhookKeyPair();
    const headers = signStandardWebhook({ id: 'msg_1', timestamp: T, body, keys: [secret, pair.secretKey] });
    await expect(verifyWebhook({ headers, bodyBase64, standardWebhookKeys: [secret], now })).resolves.toEqual({
      valid: true,
      scheme: 'standard-webhooks',
      version: 'v1',
      webhookId: 'msg_1',
    });
    await expect(verifyWebhook({ headers, bodyBase64, standardWebhookKeys: async () => [pair.publicKey], now })).resolves.toMatchObject({ valid: true, version: 'v1a' });
    await expect(verifyWebhook({ headers, bodyBase64, standardWebhookKeys: [secret], now: () => (T + 301) * 1000 })).resolves.toMatchObject({
      valid: false,
      scheme: 'standard-webhooks',
      reason: 'expired',
    });
    await expect(verifyWebhook({ headers, bodyBase64, now })).resolves.toMatchObject({ scheme: 'standard-webhooks', reason: 'unknown_key' });
  });

  it('prefers RFC 9421 when both kinds of header are present; none → missing_signature with scheme null', async () => {
    const ucp = await ucpInput();
    const mixed = { ...ucp, headers: { ...(ucp.headers as Record<string, string>), 'webhook-signature': 'v1,AAAA' } };
    await expect(verifyWebhook(mixed)).resolves.toMatchObject({ valid: true, scheme: 'rfc9421' });
    await expect(verifyWebhook({ headers: { 'content-type': 'application/json' }, bodyBase64, now })).resolves.toEqual({
      valid: false,
      scheme: null,
      reason: 'missing_signature',
      detail: 'neither Signature-Input nor webhook-signature',
    });
  });
});
