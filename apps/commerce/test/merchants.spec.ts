import { status } from '@grpc/grpc-js';
import { findFreePort } from '@exchange/db';
import { createUcpValidator } from '@exchange/ucp';
import { startFixtureServer, json, redirect, slow, text, type FixtureServer } from './support/merchants-fixture-server';
import { grpcFailure, startMerchantsHarness, EXCHANGE_PUBLIC_URL, type MerchantsHarness } from './support/merchants-harness';
import { businessProfile } from './support/merchants-profiles';
import { SANDBOX_DOMAIN, startSandboxMerchantProcess, type SandboxMerchantProcess } from './support/merchants-sandbox';

// GetPlatformProfile and GetMerchantProfile over gRPC: the real sandbox merchant, and a fixture
// server answering for one merchant domain per path prefix (MERCHANT_DIRECTORY may map a domain
// to a base URL with a path).

const ucp = createUcpValidator();
let h: MerchantsHarness;
let sandbox: SandboxMerchantProcess;
let fx: FixtureServer;

const FIXTURES = ['ok', 'redirect', 'notjson', 'invalid', 'noendpoint', 'slow', 'flaky', 'count', 'huge', 'plainhttp'];

beforeAll(async () => {
  [sandbox, fx] = await Promise.all([startSandboxMerchantProcess(), startFixtureServer()]);
  const closedPort = await findFreePort();
  const extra = Object.fromEntries(FIXTURES.map((name) => [`${name}.example`, `${fx.url}/${name}`]));
  h = await startMerchantsHarness({ directory: sandbox.directory({ ...extra, 'down.example': `http://127.0.0.1:${closedPort}` }) });
  fx.on('/ok/.well-known/ucp', json(200, businessProfile(`${fx.url}/ok/ucp`)));
  fx.on('/redirect/.well-known/ucp', redirect(`${fx.url}/ok/.well-known/ucp`));
  fx.on('/notjson/.well-known/ucp', text(200, '<html>hello</html>'));
  fx.on('/invalid/.well-known/ucp', json(200, { ucp: { version: 'draft', capabilities: [] } }));
  fx.on('/noendpoint/.well-known/ucp', json(200, { ...businessProfile('x'), ucp: { ...(businessProfile('x').ucp as object), services: {} } }));
  fx.on('/slow/.well-known/ucp', slow(4_000, json(200, businessProfile(`${fx.url}/slow`))));
  fx.on('/count/.well-known/ucp', slow(200, json(200, businessProfile(`${fx.url}/count`))));
  fx.on('/huge/.well-known/ucp', json(200, { ...businessProfile(`${fx.url}/huge`), padding: 'x'.repeat(300 * 1024) }));
}, 120_000);

afterAll(async () => {
  await h?.close();
  await Promise.all([sandbox?.stop(), fx?.close()]);
});

describe('GetPlatformProfile', () => {
  it('serves the exchange’s UCP platform profile: valid, with its endpoint, order webhook URL and signing key', async () => {
    const res = await h.client.getPlatformProfile({});
    const profile = JSON.parse(res.profileJson);
    expect(ucp.validate('platform_profile', profile)).toEqual({ valid: true });
    expect(profile.ucp.services['dev.ucp.shopping'][0].endpoint).toBe(`${EXCHANGE_PUBLIC_URL}/v1/commerce/ucp`);
    expect(profile.ucp.capabilities['dev.ucp.shopping.order'][0].config.webhook_url).toBe(`${EXCHANGE_PUBLIC_URL}/v1/commerce/ucp/webhooks/orders`);
    expect(profile.signing_keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', kid: expect.stringMatching(/^exchange-platform-[0-9a-f]{16}$/) })]);
  });
});

describe('GetMerchantProfile', () => {
  it('fetches the sandbox merchant’s profile through MERCHANT_DIRECTORY, validated, with when it was fetched and until when it is reused', async () => {
    const res = await h.client.getMerchantProfile({ merchantDomain: SANDBOX_DOMAIN, refresh: true });
    const profile = JSON.parse(res.profileJson);
    expect(ucp.validate('business_profile', profile)).toEqual({ valid: true });
    expect(res).toMatchObject({ merchantDomain: SANDBOX_DOMAIN, sourceUrl: sandbox.url });
    expect(profile.ucp.services['dev.ucp.shopping'][0].endpoint).toBe(sandbox.url);
    expect(res.cacheExpiresAt!.getTime() - res.fetchedAt!.getTime()).toBe(300_000);
  });

  it('reuses the cached profile until it expires; refresh fetches again', async () => {
    const first = await h.client.getMerchantProfile({ merchantDomain: 'ok.example', refresh: false });
    const hits = fx.hits('/ok/.well-known/ucp').length;
    h.clock.advance(60_000);
    const cached = await h.client.getMerchantProfile({ merchantDomain: 'ok.example', refresh: false });
    expect(cached.fetchedAt).toEqual(first.fetchedAt);
    expect(fx.hits('/ok/.well-known/ucp')).toHaveLength(hits);
    const refreshed = await h.client.getMerchantProfile({ merchantDomain: 'ok.example', refresh: true });
    expect(refreshed.fetchedAt!.getTime()).toBeGreaterThan(first.fetchedAt!.getTime());
    expect(fx.hits('/ok/.well-known/ucp')).toHaveLength(hits + 1);
    h.clock.advance(300_001);
    await h.client.getMerchantProfile({ merchantDomain: 'ok.example', refresh: false });
    expect(fx.hits('/ok/.well-known/ucp')).toHaveLength(hits + 2);
  });

  it('shares one fetch between concurrent requests for a domain', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => h.client.getMerchantProfile({ merchantDomain: 'count.example', refresh: false })));
    expect(fx.hits('/count/.well-known/ucp')).toHaveLength(1);
    expect(new Set(answers.map((a) => a.fetchedAt!.getTime())).size).toBe(1);
  });

  it('does not cache a failure: the next request fetches again', async () => {
    fx.on('/flaky/.well-known/ucp', json(503, { error: 'busy' }));
    const failed = await grpcFailure(h.client.getMerchantProfile({ merchantDomain: 'flaky.example', refresh: false }));
    expect(failed).toMatchObject({ code: 'profile_unreachable', details: { reason: 'http_503' } });
    fx.on('/flaky/.well-known/ucp', json(200, businessProfile(`${fx.url}/flaky`)));
    const ok = await h.client.getMerchantProfile({ merchantDomain: 'flaky.example', refresh: false });
    expect(ok.merchantDomain).toBe('flaky.example');
  });

  it('400 invalid_merchant_domain for anything but a lower-case DNS name', async () => {
    for (const merchantDomain of ['', 'Sandbox-Merchant.local', 'https://shop.example', 'shop.example:443', 'shop.example/x', '127.0.0.1', 'localhost']) {
      expect(await grpcFailure(h.client.getMerchantProfile({ merchantDomain, refresh: false }))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'invalid_merchant_domain',
      });
    }
  });

  it('424 profile_unreachable: a redirect (not followed), nothing listening, too slow', async () => {
    const okHits = fx.hits('/ok/.well-known/ucp').length;
    expect(await grpcFailure(h.client.getMerchantProfile({ merchantDomain: 'redirect.example', refresh: false }))).toMatchObject({
      code: 'profile_unreachable',
      details: { reason: 'redirect', merchant_domain: 'redirect.example' },
    });
    expect(fx.hits('/ok/.well-known/ucp')).toHaveLength(okHits);
    expect(await grpcFailure(h.client.getMerchantProfile({ merchantDomain: 'down.example', refresh: false }))).toMatchObject({
      code: 'profile_unreachable',
      details: { reason: 'network' },
    });
    expect(await grpcFailure(h.client.getMerchantProfile({ merchantDomain: 'slow.example', refresh: false }))).toMatchObject({
      code: 'profile_unreachable',
      details: { reason: 'timeout' },
    });
  });

  it('422 profile_malformed: not JSON, outside the UCP schema (with errors), no REST endpoint, too large', async () => {
    expect(await grpcFailure(h.client.getMerchantProfile({ merchantDomain: 'notjson.example', refresh: false }))).toMatchObject({
      code: 'profile_malformed',
      details: { errors: [{ pointer: '', message: 'not JSON' }] },
    });
    const invalid = await grpcFailure(h.client.getMerchantProfile({ merchantDomain: 'invalid.example', refresh: false }));
    expect(invalid).toMatchObject({ code: 'profile_malformed' });
    expect((invalid.details as { errors: Array<{ pointer: string }> }).errors.map((e) => e.pointer)).toEqual(expect.arrayContaining(['/ucp/version', '/ucp/services']));
    expect(await grpcFailure(h.client.getMerchantProfile({ merchantDomain: 'noendpoint.example', refresh: false }))).toMatchObject({
      code: 'profile_malformed',
      details: { errors: [expect.objectContaining({ message: expect.stringContaining('REST') })] },
    });
    expect(await grpcFailure(h.client.getMerchantProfile({ merchantDomain: 'huge.example', refresh: false }))).toMatchObject({
      code: 'profile_malformed',
      details: { errors: [{ pointer: '', message: expect.stringContaining('larger than') }] },
    });
  });

  it('an unmapped domain is fetched over https only (here it cannot be reached)', async () => {
    const failed = await grpcFailure(h.client.getMerchantProfile({ merchantDomain: 'shop.invalid', refresh: false }));
    expect(failed).toMatchObject({ code: 'profile_unreachable', details: { merchant_domain: 'shop.invalid' } });
  });
});
