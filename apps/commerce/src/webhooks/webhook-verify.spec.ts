import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateKey } from 'node:crypto';
import { generateStandardWebhookKeyPair, signHttpMessage, signStandardWebhook } from '@exchange/http-signatures';
import { errors } from '@exchange/platform';
import { buildUcpAgentHeader } from '@exchange/ucp';
import type { MerchantPort, MerchantProfileView } from '../domain/merchant.ports';
import { verifyAnyWebhook, type WebhookVerifyDeps } from './webhook-verify';

// RFC 9421 B.1.3 test-key-ecc-p256 (public test key; ../shared/third_party/rfc9421/vectors.md).
const B13_JWK = { kid: 'test-key-ecc-p256', kty: 'EC', crv: 'P-256', x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA', y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0' };
const B13_PRIVATE = createPrivateKey({ key: { ...B13_JWK, d: 'UpuF81l-kOxbjf7T4mNSv0r5tN67Gim7rnf6EFpcYDs' }, format: 'jwk' });
// The Standard Webhooks v1 vector (libs/http-signatures' copy of ../shared/third_party/standard-webhooks/vectors.json).
const SW = JSON.parse(readFileSync(join(__dirname, '../../../../libs/http-signatures/test/fixtures/standard-webhooks/vectors.json'), 'utf8')).vectors[0];

const NOW = new Date('2026-11-21T18:00:00Z');
const WEBHOOK_URL = 'https://exchange.example/v1/commerce/ucp/webhooks/orders';
const PROFILE_URL = 'https://shop.example/.well-known/ucp';

/** A MerchantPort double: shop.example publishes the B.1.3 key; down.example is unreachable. */
function merchants(): MerchantPort & { fetches: string[] } {
  const fetches: string[] = [];
  return {
    fetches,
    merchantDomainOf: (url) => ({ [PROFILE_URL]: 'shop.example', 'https://down.example/.well-known/ucp': 'down.example' })[url],
    profile: async (domain) => {
      fetches.push(domain);
      if (domain !== 'shop.example') throw errors.failedPrecondition('profile_unreachable', 'down');
      return { merchantDomain: domain, profile: { ucp: { version: '2026-04-08' }, signing_keys: [B13_JWK] } } as unknown as MerchantProfileView;
    },
    call: () => Promise.reject(new Error('not used')),
  };
}

const deps = (m = merchants(), now = NOW): WebhookVerifyDeps => ({ merchants: m, clock: () => now, webhookUrl: WEBHOOK_URL });
const headerList = (h: Record<string, string | string[]>) => Object.entries(h).map(([name, value]) => ({ name, value: Array.isArray(value) ? value.join(', ') : value }));

async function signedOrder(opts: { url?: string; profileUrl?: string; keyid?: string } = {}) {
  const body = JSON.stringify({ id: 'ord_1', checkout_id: 'cs_1' });
  const headers = await signHttpMessage(
    {
      method: 'POST',
      url: opts.url ?? WEBHOOK_URL,
      headers: { 'content-type': 'application/json', 'ucp-agent': buildUcpAgentHeader(opts.profileUrl ?? PROFILE_URL), 'webhook-id': 'wh_1', 'webhook-timestamp': '1790000000' },
      body,
    },
    { key: B13_PRIVATE, keyid: opts.keyid ?? 'test-key-ecc-p256', now: () => NOW },
  );
  return { headers: headerList(headers), body: Buffer.from(body) };
}

describe('webhook verify: UCP (RFC 9421)', () => {
  it('verifies an ES256 delivery with the key the merchant profile of UCP-Agent publishes (default URL: our webhook_url)', async () => {
    const w = await signedOrder();
    expect(await verifyAnyWebhook(deps(), w)).toEqual({ valid: true, scheme: 'ucp_rfc9421', keyId: 'test-key-ecc-p256', merchantDomain: 'shop.example' });
    expect(await verifyAnyWebhook(deps(), { ...w, method: 'POST', url: WEBHOOK_URL })).toMatchObject({ valid: true });
  });

  it('a tampered body → digest_mismatch; another URL → signature_invalid; an unknown keyid → key_not_found', async () => {
    const w = await signedOrder();
    expect(await verifyAnyWebhook(deps(), { ...w, body: Buffer.from('{"id":"ord_2","checkout_id":"cs_1"}') })).toMatchObject({
      valid: false,
      scheme: 'ucp_rfc9421',
      reason: 'digest_mismatch',
      merchantDomain: 'shop.example',
    });
    expect(await verifyAnyWebhook(deps(), { ...w, url: 'https://exchange.example/elsewhere' })).toMatchObject({ valid: false, reason: 'signature_invalid' });
    const unknown = await signedOrder({ keyid: 'rotated-away' });
    expect(await verifyAnyWebhook(deps(), unknown)).toMatchObject({ valid: false, reason: 'key_not_found', keyId: 'rotated-away' });
    const noDigest = { ...w, headers: w.headers.filter((h) => h.name.toLowerCase() !== 'content-digest') };
    expect(await verifyAnyWebhook(deps(), noDigest)).toMatchObject({ valid: false, reason: expect.stringMatching(/^(digest_missing|component_missing)$/) });
  });

  it('names what is wrong with the signer: no UCP-Agent, a profile URL naming no merchant, an unreachable profile', async () => {
    const w = await signedOrder();
    const noAgent = { ...w, headers: w.headers.filter((h) => h.name !== 'ucp-agent') };
    expect(await verifyAnyWebhook(deps(), noAgent)).toMatchObject({ valid: false, reason: 'ucp_agent_missing' });
    expect(await verifyAnyWebhook(deps(), await signedOrder({ profileUrl: 'https://evil.example/profile.json' }))).toMatchObject({ valid: false, reason: 'profile_url_invalid' });
    const m = merchants();
    expect(await verifyAnyWebhook(deps(m), await signedOrder({ profileUrl: 'https://down.example/.well-known/ucp' }))).toMatchObject({
      valid: false,
      reason: 'profile_unreachable',
      merchantDomain: 'down.example',
    });
    expect(m.fetches).toEqual(['down.example']);
    const repeated = { ...w, headers: [...w.headers, { name: 'Signature', value: 'sig2=:AAAA:' }] };
    expect(await verifyAnyWebhook(deps(), repeated)).toMatchObject({ valid: false, reason: 'header_repeated' });
  });

  it('without a port that maps profile URLs no UCP webhook verifies', async () => {
    const { merchantDomainOf: _unused, ...port } = merchants();
    expect(await verifyAnyWebhook(deps(port as MerchantPort & { fetches: string[] }), await signedOrder())).toMatchObject({ valid: false, reason: 'profile_url_invalid' });
  });
});

describe('webhook verify: Standard Webhooks', () => {
  const vector = () => ({
    headers: headerList({ 'webhook-id': SW.webhook_id, 'webhook-timestamp': String(SW.webhook_timestamp), 'webhook-signature': SW.expected_webhook_signature }),
    body: Buffer.from(SW.payload),
    secret: SW.secret as string,
  });
  const at = (seconds: number) => deps(merchants(), new Date(seconds * 1000));

  it('verifies the reference v1 vector (HMAC-SHA256, whsec_) within ±300 s', async () => {
    expect(await verifyAnyWebhook(at(SW.webhook_timestamp + 299), vector())).toEqual({ valid: true, scheme: 'standard_webhooks_v1' });
    expect(await verifyAnyWebhook(at(SW.webhook_timestamp + 301), vector())).toMatchObject({ valid: false, scheme: 'standard_webhooks_v1', reason: 'timestamp_out_of_window' });
    expect(await verifyAnyWebhook(at(SW.webhook_timestamp - 301), vector())).toMatchObject({ valid: false, reason: 'timestamp_out_of_window' });
  });

  it('another body or secret → signature_invalid; no secret → secret_required', async () => {
    const t = at(SW.webhook_timestamp);
    expect(await verifyAnyWebhook(t, { ...vector(), body: Buffer.from('{"test": 1}') })).toMatchObject({ valid: false, reason: 'signature_invalid' });
    expect(await verifyAnyWebhook(t, { ...vector(), secret: 'whsec_' + Buffer.alloc(24, 1).toString('base64') })).toMatchObject({ valid: false, reason: 'signature_invalid' });
    const { secret: _s, ...noSecret } = vector();
    expect(await verifyAnyWebhook(t, noSecret)).toEqual({ valid: false, scheme: 'standard_webhooks_v1', reason: 'secret_required' });
  });

  it('verifies v1a (ed25519) with the whpk_ public key', async () => {
    const pair = generateStandardWebhookKeyPair();
    const body = '{"event":"order.created"}';
    const headers = signStandardWebhook({ id: 'msg_1', timestamp: NOW, body, keys: pair.secretKey });
    const w = { headers: headerList(headers), body: Buffer.from(body), secret: pair.publicKey };
    expect(await verifyAnyWebhook(deps(), w)).toEqual({ valid: true, scheme: 'standard_webhooks_v1a' });
    expect(await verifyAnyWebhook(deps(), { ...w, body: Buffer.from('{}') })).toEqual({ valid: false, scheme: 'standard_webhooks_v1a', reason: 'signature_invalid' });
  });
});

describe('webhook verify: input', () => {
  it('no signature at all is a result: scheme none, signature_missing', async () => {
    expect(await verifyAnyWebhook(deps(), { headers: [{ name: 'content-type', value: 'application/json' }], body: Buffer.from('{}') })).toEqual({
      valid: false,
      scheme: 'none',
      reason: 'signature_missing',
    });
  });

  it.each([
    ['lower-case method', { method: 'post' }, '/method'],
    ['ftp URL', { url: 'ftp://exchange.example/x' }, '/url'],
    ['not a URL', { url: 'not a url' }, '/url'],
    ['not a whsec_/whpk_ secret', { secret: 'hunter2' }, '/secret'],
    ['header name with a space', { headers: [{ name: 'bad name', value: 'x' }] }, '/headers/0/name'],
    ['101 headers', { headers: Array.from({ length: 101 }, (_, i) => ({ name: `x-${i}`, value: 'v' })) }, '/headers'],
    ['a body over 1 MiB', { body: Buffer.alloc(1024 * 1024 + 1) }, '/body'],
  ])('a malformed field is a 400 validation_failed: %s', async (_label, patch, pointer) => {
    const input = { headers: [{ name: 'webhook-signature', value: 'v1,AAAA' }], body: Buffer.from('{}'), ...patch };
    await expect(verifyAnyWebhook(deps(), input)).rejects.toMatchObject({ code: 'validation_failed', details: { errors: expect.arrayContaining([expect.objectContaining({ pointer })]) } });
  });
});
