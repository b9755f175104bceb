import { DomainError, errors } from '@exchange/platform';
import { status } from '@grpc/grpc-js';
import { expectProblem } from './harness';
import { anonymous, asOperator, buyer, h, signed, useCommerceHarness } from './commerce-setup';

// UCP discovery through the gateway (fake commerce): the public platform profile, merchant
// profiles, negotiation, and the merchant failure codes carried to the client.

useCommerceHarness();

describe('GET /.well-known/ucp', () => {
  it('should answer the platform profile without credentials, cacheable for 300 s', async () => {
    const res = await anonymous('GET', '/.well-known/ucp');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.json()).toEqual({ ucp: { version: '2026-04-08', capabilities: {} }, signing_keys: [] });
  });

  it('should hide a commerce failure as 500 internal, without its message', async () => {
    h.commerce.failNext('getPlatformProfile', new Error('pool exhausted at 10.0.0.7'));
    const body = expectProblem(await anonymous('GET', '/.well-known/ucp'), 500, 'internal');
    expect(body.detail).toBe('internal error');
  });
});

describe('GET /v1/commerce/ucp/merchants/{merchant_domain}/profile', () => {
  const url = '/v1/commerce/ucp/merchants/sandbox-merchant.local/profile';

  it('should answer the fetched profile with its cache times, passing refresh', async () => {
    const res = await signed(buyer, 'GET', `${url}?refresh=true`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      merchant_domain: 'sandbox-merchant.local',
      profile: { ucp: { version: '2026-04-08', services: {}, payment_handlers: {} } },
      source_url: 'https://sandbox-merchant.local',
      fetched_at: '2026-11-21T18:00:00.000Z',
      cache_expires_at: '2026-11-21T18:05:00.000Z',
    });
    expect(h.commerce.lastCall('getMerchantProfile').request).toEqual({ merchantDomain: 'sandbox-merchant.local', refresh: true });
    await asOperator('GET', url);
    expect(h.commerce.lastCall('getMerchantProfile').request).toEqual({ merchantDomain: 'sandbox-merchant.local', refresh: false });
  });

  it('should refuse anonymous callers and a refresh that is not a boolean', async () => {
    expectProblem(await anonymous('GET', url), 401, 'unauthenticated');
    expectProblem(await signed(buyer, 'GET', `${url}?refresh=yes`), 400, 'validation_failed');
  });

  it.each([
    ['invalid_merchant_domain', 400, errors.invalidArgument('invalid_merchant_domain', 'not a DNS name')],
    ['profile_malformed', 422, errors.failedPrecondition('profile_malformed', 'ucp.version missing')],
    ['profile_unreachable', 424, errors.unavailable('profile_unreachable', 'redirects are not followed')],
    ['merchant_unavailable', 502, errors.unavailable('merchant_unavailable', 'merchant answered 503')],
    ['merchant_timeout', 504, new DomainError(status.DEADLINE_EXCEEDED, 'merchant_timeout', 'no answer in 10 s')],
  ] as const)('should carry %s as %i with its message', async (name, code, err) => {
    h.commerce.failNext('getMerchantProfile', err);
    const body = expectProblem(await signed(buyer, 'GET', url), code, name);
    expect(body.detail).toBe(err.message);
  });
});

describe('POST /v1/commerce/ucp/negotiate', () => {
  it('should answer the negotiation result with UCP objects parsed', async () => {
    const res = await signed(buyer, 'POST', '/v1/commerce/ucp/negotiate', { merchant_domain: 'sandbox-merchant.local', capabilities: ['dev.ucp.shopping.checkout'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      merchant_domain: 'sandbox-merchant.local',
      status: 'ok',
      version: '2026-04-08',
      capabilities: [
        { name: 'dev.ucp.shopping.checkout', version: '2026-04-08' },
        { name: 'dev.ucp.shopping.discount', version: '2026-04-08', extends: ['dev.ucp.shopping.checkout'] },
      ],
      payment_handlers: { 'com.example.pay': [] },
      messages: [],
      endpoint: 'https://sandbox-merchant.local/ucp',
    });
    expect(h.commerce.lastCall('negotiate').request).toEqual({ merchantDomain: 'sandbox-merchant.local', capabilities: ['dev.ucp.shopping.checkout'] });
  });

  it('should send every platform capability when none are named', async () => {
    await signed(buyer, 'POST', '/v1/commerce/ucp/negotiate', { merchant_domain: 'sandbox-merchant.local' });
    expect(h.commerce.lastCall('negotiate').request).toEqual({ merchantDomain: 'sandbox-merchant.local', capabilities: [] });
  });

  it.each([
    ['no merchant_domain', {}],
    ['an unknown field', { merchant_domain: 'a.example', force: true }],
    ['a capability that is not a string', { merchant_domain: 'a.example', capabilities: [1] }],
    ['NUL in the domain', { merchant_domain: 'a\u0000.example' }],
  ])('should answer 400 for %s without calling commerce', async (_name, payload) => {
    const before = h.commerce.calls.length;
    expectProblem(await signed(buyer, 'POST', '/v1/commerce/ucp/negotiate', payload), 400, 'validation_failed');
    expect(h.commerce.calls.length).toBe(before);
  });
});
