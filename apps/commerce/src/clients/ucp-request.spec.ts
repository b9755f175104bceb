import { createHash } from 'node:crypto';
import { verifyHttpMessage } from '@exchange/http-signatures';
import { createUcpValidator } from '@exchange/ucp';
import { createPlatformIdentity } from '../merchants/platform-identity';
import { prepareRequest } from './ucp-request';

const platform = createPlatformIdentity({ exchangeSigningKey: new Uint8Array(32).fill(4), publicUrl: 'https://exchange.example' });
const deps = { platform, validator: createUcpValidator(), clock: () => new Date('2026-11-21T18:00:00Z') };
const ENDPOINT = 'https://shop.example/ucp';
const CAPS = ['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount'];
const KEY = '0b5d3c1e-8f7a-4c2b-9e6d-1a2b3c4d5e6f';

function params(header: string): string[] {
  return /\(([^)]*)\)/.exec(header)![1]!.split(' ').map((c) => c.replace(/"/g, ''));
}

async function verified(req: Awaited<ReturnType<typeof prepareRequest>>) {
  return verifyHttpMessage(
    { method: req.method, url: req.url, headers: req.headers, body: req.body },
    { resolveKey: (keyid) => (keyid === platform.keyId ? platform.publicJwk : null), now: deps.clock },
  );
}

describe('signed UCP requests', () => {
  it('create: POST /checkout-sessions with UCP-Agent, Request-Id, Idempotency-Key, Content-Digest and an ES256 signature over them', async () => {
    const body = { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 1 }], buyer: { email: 'a@example.com' }, discounts: { codes: ['10OFF'] } };
    const req = await prepareRequest(ENDPOINT, 'create_checkout', { body, idempotencyKey: KEY }, CAPS, deps);
    expect(req.method).toBe('POST');
    expect(req.url).toBe('https://shop.example/ucp/checkout-sessions');
    expect(req.headers['ucp-agent']).toBe('profile="https://exchange.example/.well-known/ucp"');
    expect(req.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(req.headers['idempotency-key']).toBe(KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['content-digest']).toBe(`sha-256=:${createHash('sha256').update(req.body!).digest('base64')}:`);
    expect(JSON.parse(req.body!)).toEqual(body);
    expect(params(req.headers['signature-input']!)).toEqual(['@method', '@authority', '@path', 'ucp-agent', 'idempotency-key', 'content-digest', 'content-type']);
    expect(req.headers['signature-input']).toContain(`keyid="${platform.keyId}"`);
    const result = await verified(req);
    expect(result).toMatchObject({ valid: true, keyid: platform.keyId, algorithm: 'ecdsa-p256-sha256' });
  });

  it('get: GET without body or Idempotency-Key, the checkout id escaped in the path', async () => {
    const req = await prepareRequest(ENDPOINT, 'get_checkout', { checkoutId: 'cs/1 2' }, CAPS, deps);
    expect(req).toMatchObject({ method: 'GET', url: 'https://shop.example/ucp/checkout-sessions/cs%2F1%202', body: undefined, schemaResult: 'not_applicable' });
    expect(req.headers['idempotency-key']).toBeUndefined();
    expect(req.headers['content-digest']).toBeUndefined();
    expect(params(req.headers['signature-input']!)).toEqual(['@method', '@authority', '@path', 'ucp-agent']);
    expect((await verified(req)).valid).toBe(true);
  });

  it('update is a PUT, complete and cancel POST to their sub-paths; cancel sends {}', async () => {
    const update = await prepareRequest(ENDPOINT, 'update_checkout', { checkoutId: 'c1', body: { line_items: [{ item: { id: 'x' }, quantity: 2 }] }, idempotencyKey: KEY }, CAPS, deps);
    expect(update).toMatchObject({ method: 'PUT', url: `${ENDPOINT}/checkout-sessions/c1` });
    const payment = { instruments: [{ id: 'i1', handler_id: 'mock_payment_handler', type: 'card', credential: { type: 'token', token: 'success_token' } }] };
    const complete = await prepareRequest(ENDPOINT, 'complete_checkout', { checkoutId: 'c1', body: { payment }, idempotencyKey: KEY }, CAPS, deps);
    expect(complete).toMatchObject({ method: 'POST', url: `${ENDPOINT}/checkout-sessions/c1/complete` });
    const cancel = await prepareRequest(ENDPOINT, 'cancel_checkout', { checkoutId: 'c1', idempotencyKey: KEY }, CAPS, deps);
    expect(cancel).toMatchObject({ method: 'POST', url: `${ENDPOINT}/checkout-sessions/c1/cancel`, body: '{}' });
    for (const req of [update, complete, cancel]) {
      expect(params(req.headers['signature-input']!)).toEqual(['@method', '@authority', '@path', 'ucp-agent', 'idempotency-key', 'content-digest', 'content-type']);
      expect((await verified(req)).valid).toBe(true);
    }
  });

  it('a request altered after signing does not verify', async () => {
    const req = await prepareRequest(ENDPOINT, 'cancel_checkout', { checkoutId: 'c1', idempotencyKey: KEY }, CAPS, deps);
    const other = { ...req, headers: { ...req.headers, 'idempotency-key': 'another-key' } };
    expect(await verified(other)).toMatchObject({ valid: false, reason: 'bad_signature' });
    const moved = { ...req, url: `${ENDPOINT}/checkout-sessions/c2/cancel` };
    expect(await verified(moved)).toMatchObject({ valid: false, reason: 'bad_signature' });
  });

  it('refuses a body outside the UCP request view with 400 ucp_payload_invalid and its errors', async () => {
    const call = prepareRequest(ENDPOINT, 'create_checkout', { body: { line_items: [{ item: {}, quantity: 'two' }] }, idempotencyKey: KEY }, CAPS, deps);
    await expect(call).rejects.toMatchObject({ code: 'ucp_payload_invalid', details: { errors: expect.arrayContaining([expect.objectContaining({ pointer: expect.stringContaining('/line_items/0') })]) } });
    const noPayment = prepareRequest(ENDPOINT, 'complete_checkout', { checkoutId: 'c1', body: {}, idempotencyKey: KEY }, CAPS, deps);
    await expect(noPayment).rejects.toMatchObject({ code: 'ucp_payload_invalid' });
  });

  it('insists on an Idempotency-Key for mutations and a checkout id after create (caller errors)', async () => {
    await expect(prepareRequest(ENDPOINT, 'cancel_checkout', { checkoutId: 'c1' }, CAPS, deps)).rejects.toThrow(/Idempotency-Key/);
    await expect(prepareRequest(ENDPOINT, 'get_checkout', {}, CAPS, deps)).rejects.toThrow(/checkout id/);
  });
});
