import { errors } from '@exchange/platform';
import { expectProblem, startHarness } from './harness';
import { anonymous, asOperator, buyer, h, signed, useCommerceHarness } from './commerce-setup';

// A checkout's evidence, discounts and casefile through the gateway (fake commerce), and the
// webhook signature check and order-webhook receiver (raw bytes, headers and URL as delivered).

useCommerceHarness();

const BASE = '/v1/commerce/ucp/checkout';

describe('GET …/artifacts', () => {
  it('should answer the evidence page with contents as objects and the chain verdict', async () => {
    const res = await signed(buyer, 'GET', `${BASE}/cks_7/artifacts?limit=1`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [
        {
          evidence_id: 'evd_1',
          commerce_session_id: 'cks_7',
          seq: 1,
          kind: 'merchant_request',
          operation: 'create_checkout',
          content: { method: 'POST', url: 'https://sandbox-merchant.local/ucp/checkout-sessions', headers: {}, body: {} },
          content_sha256: 'b'.repeat(64),
          prev_hash: '0'.repeat(64),
          hash: 'c'.repeat(64),
          schema_result: 'valid',
          recorded_at: '2026-11-21T18:00:00.000Z',
        },
      ],
      next_cursor: 'cur_2',
      chain_valid: true,
    });
    expect(h.commerce.lastCall('listArtifacts').request).toEqual({ actor: { agentId: buyer.agentId, operator: false }, commerceSessionId: 'cks_7', page: { limit: 1, cursor: '' } });
  });

  it('should pass the cursor, and refuse a limit out of range', async () => {
    expect((await asOperator('GET', `${BASE}/cks_7/artifacts?cursor=cur_2`)).json().next_cursor).toBeNull();
    expect(h.commerce.lastCall('listArtifacts').request).toMatchObject({ actor: { agentId: '', operator: true }, page: { limit: 0, cursor: 'cur_2' } });
    expectProblem(await signed(buyer, 'GET', `${BASE}/cks_7/artifacts?limit=201`), 400, 'validation_failed');
  });
});

describe('POST …/discount', () => {
  it('should answer applied and rejected codes with the session', async () => {
    const res = await signed(buyer, 'POST', `${BASE}/cks_7/discount`, { codes: ['WELCOME10', 'OLD5'] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ applied: ['WELCOME10'], rejected: [{ code: 'OLD5', reason: 'discount_code_expired' }] });
    expect(body.session).toMatchObject({ commerce_session_id: 'cks_7', discount_codes: ['WELCOME10', 'OLD5'], savings: '3.8' });
  });

  it('should refuse an empty list and carry not_session_buyer', async () => {
    expectProblem(await signed(buyer, 'POST', `${BASE}/cks_7/discount`, { codes: [] }), 400, 'validation_failed');
    h.commerce.failNext('applyDiscount', errors.permissionDenied('not_session_buyer', 'not your session'));
    expectProblem(await signed(buyer, 'POST', `${BASE}/cks_7/discount`, { codes: ['X'] }), 403, 'not_session_buyer');
  });
});

describe('POST …/casefile/export and …/casefile/verify', () => {
  it('should export the docket as an object', async () => {
    const res = await signed(buyer, 'POST', `${BASE}/cks_7/casefile/export`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ docket: { docket_id: 'dkt_1', session: 'cks_7', signature: 'sig' } });
  });

  it('should verify the stored session by default, or a given docket and key', async () => {
    const stored = await signed(buyer, 'POST', `${BASE}/cks_7/casefile/verify`, {});
    expect(stored.json()).toEqual({
      valid: true,
      checks: [{ ref: 'signature', ok: true }, { ref: 'evidence_chain', ok: false, reason: 'hash mismatch at seq 2' }],
      docket_id: 'dkt_1',
    });
    expect(h.commerce.lastCall<{ docketJson?: string }>('verifyCasefile').request.docketJson).toBeUndefined();
    const key = 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=';
    const given = await signed(buyer, 'POST', `${BASE}/cks_7/casefile/verify`, { docket: { docket_id: 'dkt_1', signature: 'forged' }, exchange_public_key: key });
    expect(given.json()).toMatchObject({ valid: false });
    expect(h.commerce.lastCall('verifyCasefile').request).toMatchObject({ docketJson: '{"docket_id":"dkt_1","signature":"forged"}', exchangePublicKey: key });
  });

  it('should refuse a docket that is not an object', async () => {
    expectProblem(await signed(buyer, 'POST', `${BASE}/cks_7/casefile/verify`, { docket: 'dkt_1' }), 400, 'validation_failed');
  });
});

describe('POST /v1/commerce/ucp/webhooks/verify', () => {
  const body = { headers: { Signature: 'sig1=:x:', 'Content-Digest': 'sha-256=:y:' }, body_base64: Buffer.from('{"id":"ord_1"}').toString('base64') };

  it('should send the headers (names lower-cased) and the decoded bytes, and answer the verdict', async () => {
    const res = await signed(buyer, 'POST', '/v1/commerce/ucp/webhooks/verify', { ...body, method: 'POST', url: 'https://exchange.example/hook' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ valid: true, scheme: 'ucp_rfc9421', key_id: 'merchant-2026-11', merchant_domain: 'sandbox-merchant.local' });
    const req = h.commerce.lastCall<{ headers: unknown; body: Buffer; method: string; url: string }>('verifyWebhook').request;
    expect(req.headers).toEqual([{ name: 'signature', value: 'sig1=:x:' }, { name: 'content-digest', value: 'sha-256=:y:' }]);
    expect(Buffer.from(req.body).toString()).toBe('{"id":"ord_1"}');
    expect({ method: req.method, url: req.url }).toEqual({ method: 'POST', url: 'https://exchange.example/hook' });
  });

  it('should answer an unsigned delivery as a result, not an error', async () => {
    const res = await signed(buyer, 'POST', '/v1/commerce/ucp/webhooks/verify', { headers: {}, body_base64: '' });
    expect(res.json()).toEqual({ valid: false, scheme: 'none', reason: 'signature_missing' });
  });

  it.each([
    ['body_base64 that is not base64', { ...body, body_base64: 'not base64!' }],
    ['a header value that is not a string', { ...body, headers: { a: 1 } }],
    ['a relative url', { ...body, url: '/hook' }],
  ])('should answer 400 for %s', async (_name, payload) => {
    expectProblem(await signed(buyer, 'POST', '/v1/commerce/ucp/webhooks/verify', payload), 400, 'validation_failed');
  });

  it('should refuse anonymous callers', async () => {
    expectProblem(await anonymous('POST', '/v1/commerce/ucp/webhooks/verify', body), 401, 'unauthenticated');
  });
});

describe('POST /v1/commerce/ucp/webhooks/orders', () => {
  const URL = '/v1/commerce/ucp/webhooks/orders';
  // Not what JSON.stringify would write: the receiver must pass these exact bytes on.
  const RAW = '{ "id" : "ord_1",\n  "checkout_id":"chk_1" }';
  const deliver = (headers: Record<string, string>, payload: string | Buffer = RAW) =>
    h.app.inject({ method: 'POST', url: URL, headers: { host: 'exchange.example', 'content-type': 'application/json', ...headers }, payload });

  it('should accept a signed delivery without exchange credentials, passing bytes, headers and URL unchanged', async () => {
    const res = await deliver({ signature: 'sig1=:x:', 'Webhook-Id': 'w-1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: true, commerce_session_id: 'cks_1', duplicate: false });
    const req = h.commerce.lastCall<{ headers: Array<{ name: string; value: string }>; body: Buffer; method: string; url: string }>('receiveOrderWebhook').request;
    expect(Buffer.from(req.body).toString()).toBe(RAW);
    expect(req.method).toBe('POST');
    expect(req.url).toBe('http://exchange.example/v1/commerce/ucp/webhooks/orders');
    expect(req.headers).toEqual(expect.arrayContaining([{ name: 'signature', value: 'sig1=:x:' }, { name: 'webhook-id', value: 'w-1' }, { name: 'host', value: 'exchange.example' }]));
  });

  it('should take bytes that are not valid JSON (commerce judges them)', async () => {
    const res = await deliver({ signature: 'sig1=:x:', 'content-type': 'text/plain' }, Buffer.from([0x7b, 0x00, 0xff]));
    expect(res.statusCode).toBe(200);
    expect([...Buffer.from(h.commerce.lastCall<{ body: Buffer }>('receiveOrderWebhook').request.body)]).toEqual([0x7b, 0x00, 0xff]);
  });

  it('should answer a Webhook-Id seen before as accepted and duplicate', async () => {
    expect((await deliver({ signature: 'sig1=:x:', 'webhook-id': 'seen' })).json()).toMatchObject({ accepted: true, duplicate: true });
  });

  it('should answer refusals as 401 (who signed) or 400 (the message) with the reason', async () => {
    expect(expectProblem(await deliver({}), 401, 'webhook_unauthenticated')).toMatchObject({ reason: 'signature_missing' });
    expect(expectProblem(await deliver({ signature: 'bad-digest' }), 400, 'webhook_rejected')).toMatchObject({ reason: 'digest_mismatch' });
  });

  it('should refuse a body over 1 MiB with 413 without calling commerce', async () => {
    const before = h.commerce.calls.length;
    expectProblem(await deliver({ signature: 'sig1=:x:' }, Buffer.alloc(1024 * 1024 + 1, 0x20)), 413, 'payload_too_large');
    expect(h.commerce.calls.length).toBe(before);
  });

  it('should keep JSON parsing for every other route (the raw parser is scoped)', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/commerce/ucp/negotiate', headers: { ...buyer.signedHeaders('POST', '/v1/commerce/ucp/negotiate', 'x'), 'content-type': 'text/plain' }, payload: 'x' });
    expectProblem(res, 415, 'unsupported_media_type');
  });
});

describe('POST /v1/commerce/ucp/webhooks/orders behind a proxy (PUBLIC_BASE_URL)', () => {
  it('should pass the URL the merchant signed, not the one seen here', async () => {
    const proxied = await startHarness({ env: { PUBLIC_BASE_URL: 'https://exchange.example/' } });
    try {
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/v1/commerce/ucp/webhooks/orders?attempt=2',
        headers: { host: 'gateway.internal:8080', 'content-type': 'application/json', signature: 'sig1=:x:' },
        payload: '{}',
      });
      expect(res.statusCode).toBe(200);
      expect(proxied.commerce.lastCall<{ url: string }>('receiveOrderWebhook').request.url).toBe('https://exchange.example/v1/commerce/ucp/webhooks/orders?attempt=2');
    } finally {
      await proxied.close();
    }
  });
});
