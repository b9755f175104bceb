import { status } from '@grpc/grpc-js';
import { startFixtureServer, json, type FixtureServer } from './support/merchants-fixture-server';
import { grpcFailure, startMerchantsHarness, type MerchantsHarness } from './support/merchants-harness';
import { businessProfile, UCP_VERSION } from './support/merchants-profiles';
import { SANDBOX_DOMAIN, startSandboxMerchantProcess, type SandboxMerchantProcess } from './support/merchants-sandbox';

// Negotiate over gRPC: the exchange's platform profile against the real sandbox merchant (ok) and
// crafted merchant profiles (incompatible capabilities, another protocol version).

let h: MerchantsHarness;
let sandbox: SandboxMerchantProcess;
let fx: FixtureServer;

const spec = 'https://ucp.dev/2026-04-08/specification/order';

beforeAll(async () => {
  [sandbox, fx] = await Promise.all([startSandboxMerchantProcess(), startFixtureServer()]);
  h = await startMerchantsHarness({
    directory: sandbox.directory({ 'orders-only.example': `${fx.url}/orders-only`, 'old.example': `${fx.url}/old`, 'broken.example': `${fx.url}/broken` }),
  });
  fx.on('/orders-only/.well-known/ucp', json(200, businessProfile(`${fx.url}/orders-only`, { capabilities: { 'dev.ucp.shopping.order': [{ version: UCP_VERSION, spec }] } })));
  fx.on('/old/.well-known/ucp', json(200, businessProfile(`${fx.url}/old`, { version: '2026-01-11' })));
  fx.on('/broken/.well-known/ucp', json(200, { ucp: {} }));
}, 120_000);

afterAll(async () => {
  await h?.close();
  await Promise.all([sandbox?.stop(), fx?.close()]);
});

describe('Negotiate', () => {
  it('ok with the sandbox merchant: checkout, discount (extends checkout) and order at 2026-04-08, its payment handlers and endpoint', async () => {
    const res = await h.client.negotiate({ merchantDomain: SANDBOX_DOMAIN, capabilities: [] });
    expect(res).toMatchObject({ merchantDomain: SANDBOX_DOMAIN, status: 'ok', version: UCP_VERSION, endpoint: sandbox.url });
    expect(res.capabilities).toEqual([
      { name: 'dev.ucp.shopping.checkout', version: UCP_VERSION, extends: [] },
      { name: 'dev.ucp.shopping.discount', version: UCP_VERSION, extends: ['dev.ucp.shopping.checkout'] },
      { name: 'dev.ucp.shopping.order', version: UCP_VERSION, extends: [] },
    ]);
    expect(JSON.parse(res.paymentHandlersJson)).toEqual({ 'local.sandbox_merchant.token': [expect.objectContaining({ id: 'mock_payment_handler' })] });
    expect(JSON.parse(res.messagesJson)).toEqual([]);
  });

  it('the buyer’s capabilities narrow the result (an extension brings its parent)', async () => {
    const res = await h.client.negotiate({ merchantDomain: SANDBOX_DOMAIN, capabilities: ['dev.ucp.shopping.discount'] });
    expect(res.status).toBe('ok');
    expect(res.capabilities.map((c) => c.name)).toEqual(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount']);
  });

  it('capabilities_incompatible is a result, with UCP messages saying what is missing', async () => {
    const res = await h.client.negotiate({ merchantDomain: 'orders-only.example', capabilities: [] });
    expect(res).toMatchObject({ status: 'capabilities_incompatible', version: UCP_VERSION, paymentHandlersJson: '{}' });
    expect(res.capabilities.map((c) => c.name)).toEqual(['dev.ucp.shopping.order']);
    expect(JSON.parse(res.messagesJson)).toEqual([expect.objectContaining({ type: 'error', code: 'capabilities_incompatible', content: expect.stringContaining('dev.ucp.shopping.checkout') })]);
    const wantsDiscount = await h.client.negotiate({ merchantDomain: 'orders-only.example', capabilities: ['dev.ucp.shopping.order'] });
    expect(wantsDiscount.status).toBe('ok');
  });

  it('version_unsupported is a result', async () => {
    const res = await h.client.negotiate({ merchantDomain: 'old.example', capabilities: [] });
    expect(res).toMatchObject({ status: 'version_unsupported', version: UCP_VERSION, capabilities: [] });
    expect(JSON.parse(res.messagesJson)[0]).toMatchObject({ code: 'version_unsupported', content: expect.stringContaining('2026-01-11') });
  });

  it('errors: an unknown capability (400), a bad domain (400), a malformed profile (422)', async () => {
    expect(await grpcFailure(h.client.negotiate({ merchantDomain: SANDBOX_DOMAIN, capabilities: ['com.example.loyalty'] }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'validation_failed',
      details: { errors: [expect.objectContaining({ pointer: '/capabilities/0' })] },
    });
    expect(await grpcFailure(h.client.negotiate({ merchantDomain: 'http://x', capabilities: [] }))).toMatchObject({ code: 'invalid_merchant_domain' });
    expect(await grpcFailure(h.client.negotiate({ merchantDomain: 'broken.example', capabilities: [] }))).toMatchObject({ code: 'profile_malformed' });
  });
});
