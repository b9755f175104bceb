import { verifyHttpMessage } from '@exchange/http-signatures';
import { testLogger } from '@exchange/testing';
import { createUcpValidator } from '@exchange/ucp';
import { parseMerchantDirectory, UcpMerchantClient } from '../src/clients/ucp-merchant.client';
import type { MerchantCall, RecordedMessage } from '../src/domain/merchant.ports';
import { createPlatformIdentity } from '../src/merchants/platform-identity';
import { json, redirect, slow, text, startFixtureServer, type FixtureServer } from './support/merchants-fixture-server';
import { businessProfile } from './support/merchants-profiles';
import { SANDBOX_DOMAIN, startSandboxMerchantProcess, type SandboxMerchantProcess } from './support/merchants-sandbox';

// The merchant client's checkout calls (MerchantPort.call) against the real sandbox merchant, and
// a fixture merchant for what a real one does wrong. Every exchanged message comes back as
// evidence; requests are signed with the platform key.

const platform = createPlatformIdentity({ exchangeSigningKey: new Uint8Array(32).fill(5), publicUrl: 'https://exchange.test' });
const ucp = createUcpValidator();
const buyer = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const payment = { instruments: [{ id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', selected: true, credential: { type: 'token', token: 'success_token' } }] };
const key = () => crypto.randomUUID();

let sandbox: SandboxMerchantProcess;
let fx: FixtureServer;
let merchants: UcpMerchantClient;

function checkout(call: MerchantCall) {
  if (call.outcome.kind !== 'checkout') throw new Error(`expected a checkout, got ${JSON.stringify(call.outcome)}`);
  return call.outcome.checkout;
}

async function signedBy(message: RecordedMessage) {
  const { method, url, headers, body } = message.content;
  return verifyHttpMessage(
    { method: method!, url, headers, body: body === null ? undefined : JSON.stringify(body) },
    { resolveKey: (kid) => (kid === platform.keyId ? platform.publicJwk : null) },
  );
}

beforeAll(async () => {
  [sandbox, fx] = await Promise.all([startSandboxMerchantProcess(), startFixtureServer()]);
  merchants = new UcpMerchantClient({
    platform,
    // fixture.example advertises another host than the one it is reached at: the call is rebased.
    directory: parseMerchantDirectory(sandbox.directory({ 'fixture.example': `${fx.url}/m` })),
    profileTtlMs: 60_000,
    timeoutMs: 1_000,
    clock: () => new Date(),
    logger: testLogger,
  });
  fx.on('/m/.well-known/ucp', json(200, businessProfile('http://merchant.elsewhere.test:9/m/ucp')));
}, 120_000);

afterAll(async () => {
  await Promise.all([sandbox?.stop(), fx?.close()]);
});

describe('checkout calls to the sandbox merchant', () => {
  it('create (201), get, update with a discount code, complete: valid UCP checkouts, signed requests, both messages kept', async () => {
    const create = await merchants.call(SANDBOX_DOMAIN, 'create_checkout', {
      body: { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }], buyer },
      idempotencyKey: key(),
    });
    const created = checkout(create);
    expect(create.outcome).toMatchObject({ kind: 'checkout', httpStatus: 201 });
    expect(created.status).toBe('ready_for_complete');
    const [request, response] = create.messages;
    expect(request).toMatchObject({ kind: 'merchant_request', operation: 'create_checkout', schemaResult: 'valid', content: { method: 'POST', url: `${sandbox.url}/checkout-sessions` } });
    expect(request!.content.headers).toMatchObject({ 'ucp-agent': 'profile="https://exchange.test/.well-known/ucp"', 'content-type': 'application/json' });
    expect(request!.content.headers['signature']).toMatch(/^sig1=:/);
    expect(await signedBy(request!)).toMatchObject({ valid: true, keyid: platform.keyId });
    expect(response).toMatchObject({ kind: 'merchant_response', schemaResult: 'valid', content: { status: 201, body: expect.objectContaining({ id: created.id }) } });
    expect(ucp.validateCheckout('response', response!.content.body, ['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount']).valid).toBe(true);

    expect(checkout(await merchants.call(SANDBOX_DOMAIN, 'get_checkout', { checkoutId: created.id })).id).toBe(created.id);
    const updated = checkout(
      await merchants.call(SANDBOX_DOMAIN, 'update_checkout', {
        checkoutId: created.id,
        body: { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }], buyer, discounts: { codes: ['10OFF'] } },
        idempotencyKey: key(),
      }),
    );
    expect(updated.discounts?.codes).toEqual(['10OFF']);
    expect(updated.totals.find((t) => t.type === 'discount')?.amount).toBeLessThan(0);

    const done = await merchants.call(SANDBOX_DOMAIN, 'complete_checkout', { checkoutId: created.id, body: { payment }, idempotencyKey: key() });
    expect(checkout(done)).toMatchObject({ status: 'completed', order: { id: expect.stringMatching(/^ord_/) } });
    expect(await signedBy(done.messages[0]!)).toMatchObject({ valid: true });
  });

  it('cancel sends {} and a business outcome without a resource is a business_error', async () => {
    const created = checkout(await merchants.call(SANDBOX_DOMAIN, 'create_checkout', { body: { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }] }, idempotencyKey: key() }));
    const cancel = await merchants.call(SANDBOX_DOMAIN, 'cancel_checkout', { checkoutId: created.id, idempotencyKey: key() });
    expect(checkout(cancel).status).toBe('canceled');
    expect(cancel.messages[0]!.content.body).toEqual({});
    const again = await merchants.call(SANDBOX_DOMAIN, 'cancel_checkout', { checkoutId: created.id, idempotencyKey: key() });
    expect(again.outcome).toMatchObject({ kind: 'business_error', httpStatus: 409, messages: [expect.objectContaining({ type: 'error' })] });
    const unknown = await merchants.call(SANDBOX_DOMAIN, 'create_checkout', { body: { line_items: [{ item: { id: 'no_such_item' }, quantity: 1 }] }, idempotencyKey: key() });
    expect(unknown.outcome).toMatchObject({ kind: 'business_error', httpStatus: 200, messages: [expect.objectContaining({ code: 'item_unavailable' })] });
  });

  it('refuses a body outside the UCP request view with 400 ucp_payload_invalid, sending nothing', async () => {
    const before = fx.requests.length;
    await expect(merchants.call('fixture.example', 'create_checkout', { body: { line_items: 'roses' }, idempotencyKey: key() })).rejects.toMatchObject({
      code: 'ucp_payload_invalid',
      details: { errors: [expect.objectContaining({ pointer: '/line_items' })] },
    });
    expect(fx.requests.slice(before).filter((r) => r.path.startsWith('/m/ucp'))).toEqual([]);
  });
});

describe('a merchant answering outside UCP', () => {
  const call = () => merchants.call('fixture.example', 'get_checkout', { checkoutId: 'cs_1' });

  it('reaches the endpoint on the directory’s host when the profile advertises another (rebased), signed for that URL', async () => {
    fx.on('/m/ucp/checkout-sessions/cs_1', json(200, { ucp: { version: '2026-04-08', status: 'error' }, messages: [{ type: 'error', code: 'not_found', content: 'gone', severity: 'unrecoverable' }] }));
    const result = await call();
    expect(result.outcome).toMatchObject({ kind: 'business_error', messages: [expect.objectContaining({ code: 'not_found' })] });
    expect(result.messages[0]!.content.url).toBe(`${fx.url}/m/ucp/checkout-sessions/cs_1`);
    expect(await signedBy(result.messages[0]!)).toMatchObject({ valid: true });
    const received = fx.hits('/m/ucp/checkout-sessions/cs_1').at(-1)!;
    expect(received.headers).toMatchObject({ 'ucp-agent': expect.any(String), 'request-id': expect.any(String), signature: expect.any(String) });
  });

  it('a checkout outside the schema → protocol_error, kept with schemaResult invalid and the errors', async () => {
    fx.on('/m/ucp/checkout-sessions/cs_1', json(200, { id: 'cs_1', status: 'paid', currency: 'USD', line_items: [], totals: [] }));
    const result = await call();
    expect(result.outcome).toMatchObject({ kind: 'protocol_error', httpStatus: 200, reason: expect.stringContaining('does not validate') });
    expect(result.messages[1]).toMatchObject({ kind: 'merchant_response', schemaResult: 'invalid', content: { status: 200, error: expect.stringContaining('/status') } });
  });

  it('not JSON, a redirect, an unexpected 4xx → protocol_error; 5xx → unavailable; too slow → timeout', async () => {
    fx.on('/m/ucp/checkout-sessions/cs_1', text(200, 'ok'));
    expect((await call()).outcome).toMatchObject({ kind: 'protocol_error', reason: 'the response is not JSON' });
    fx.on('/m/ucp/checkout-sessions/cs_1', redirect('https://elsewhere.example/'));
    expect((await call()).outcome).toMatchObject({ kind: 'protocol_error', httpStatus: 302 });
    fx.on('/m/ucp/checkout-sessions/cs_1', json(418, { teapot: true }));
    expect((await call()).outcome).toMatchObject({ kind: 'protocol_error', httpStatus: 418 });
    fx.on('/m/ucp/checkout-sessions/cs_1', json(503, { error: 'down' }));
    expect((await call()).outcome).toMatchObject({ kind: 'unavailable', httpStatus: 503 });
    fx.on('/m/ucp/checkout-sessions/cs_1', slow(3_000, json(200, {})));
    const timedOut = await call();
    expect(timedOut.outcome).toEqual({ kind: 'timeout' });
    expect(timedOut.messages[1]).toMatchObject({ kind: 'merchant_error', content: { error: 'timeout' }, schemaResult: 'not_applicable' });
  });
});
