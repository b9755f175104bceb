import { buyer, cart, expectUcp, startHarness, type Harness } from './harness';

describe('sandbox merchant: idempotency and hostile input', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ BODY_LIMIT_BYTES: '4096' });
  });
  afterAll(() => h.merchant.stop());

  it('same Idempotency-Key + same body → the same answer; other body or operation → 409', async () => {
    const key = { 'idempotency-key': 'a0d1c1a2-0000-4000-8000-000000000001' };
    const first = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 1]], { buyer }), key);
    const again = await h.call('POST', '/checkout-sessions', { buyer, line_items: [{ quantity: 1, item: { id: 'bouquet_roses' } }] }, key);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    const other = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 2]], { buyer }), key);
    expect(other.status).toBe(409);
    expectUcp(other.json);
    expect(other.json.messages[0].code).toBe('idempotency_conflict');
    const elsewhere = await h.call('POST', `/checkout-sessions/${first.json.id}/cancel`, undefined, key);
    expect(elsewhere.status).toBe(409);
    // Keys are kept 24 h.
    h.clock.now += 24 * 60 * 60 * 1000 + 1;
    const later = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 2]], { buyer }), key);
    h.clock.now -= 24 * 60 * 60 * 1000 + 1;
    expect(later.status).toBe(201);
  });

  it('a replayed complete answers as the first time, without completing twice', async () => {
    const created = await h.call('POST', '/checkout-sessions', cart([['bouquet_tulips', 1]], { buyer }));
    const key = { 'idempotency-key': 'a0d1c1a2-0000-4000-8000-000000000002' };
    const body = { payment: { instruments: [{ id: 'i', handler_id: 'mock_payment_handler', type: 'card', credential: { type: 'token', token: 'success_token' } }] } };
    const first = await h.call('POST', `/checkout-sessions/${created.json.id}/complete`, body, key);
    const second = await h.call('POST', `/checkout-sessions/${created.json.id}/complete`, body, key);
    expect(first.json.status).toBe('completed');
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
  });

  it.each([
    ['bad JSON', '{"line_items": [', 400, 'invalid_request'],
    ['a JSON array', '[]', 400, 'invalid_request'],
    ['a line item without item', JSON.stringify({ line_items: [{ quantity: 1 }] }), 400, 'invalid_request'],
    ['a zero quantity', JSON.stringify(cart([['bouquet_roses', 0]])), 400, 'invalid_request'],
    ['an absurd quantity', JSON.stringify(cart([['bouquet_roses', 10 ** 12]])), 400, 'invalid_request'],
    ['a body nested 1500 deep', `{"line_items":${'['.repeat(1500)}${']'.repeat(1500)}}`, 400, 'invalid_request'],
    ['a huge body', JSON.stringify(cart([['bouquet_roses', 1]], { buyer: { first_name: 'x'.repeat(10_000) } })), 413, 'payload_too_large'],
  ])('create with %s', async (_name, body, status, code) => {
    const res = await h.call('POST', '/checkout-sessions', body);
    expect(res.status).toBe(status);
    expectUcp(res.json);
    expect(res.json.messages[0].code).toBe(code);
  });

  it('a non-JSON content type is 415; unknown ids and routes are 404', async () => {
    const text = await h.call('POST', '/checkout-sessions', undefined, { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expectUcp(text.json);
    for (const [method, path] of [['GET', '/checkout-sessions/nope'], ['POST', '/checkout-sessions/nope/cancel'], ['POST', '/checkout/nope/approve'], ['GET', '/nothing-here']]) {
      const res = await h.call(method, path);
      expect(res.status).toBe(404);
      expectUcp(res.json);
      expect(res.json.messages[0].code).toBe('not_found');
    }
    const put = await h.call('PUT', '/checkout-sessions/nope', cart([['bouquet_roses', 1]]));
    expect(put.status).toBe(404);
  });

  it('a deeply nested body with an Idempotency-Key is a 400, not a stack overflow', async () => {
    const body = `{"line_items":${'['.repeat(1500)}${']'.repeat(1500)}}`;
    const res = await h.call('POST', '/checkout-sessions', body, { 'idempotency-key': 'a0d1c1a2-0000-4000-8000-000000000003' });
    expect(res.status).toBe(400);
    expectUcp(res.json);
  });

  it('complete without payment and PUT without a body are 400', async () => {
    const created = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 1]], { buyer }));
    for (const [method, path] of [['POST', '/complete'], ['PUT', '']]) {
      const res = await h.call(method, `/checkout-sessions/${created.json.id}${path}`, {});
      expect(res.status).toBe(400);
      expectUcp(res.json);
    }
    expect((await h.call('GET', `/checkout-sessions/${created.json.id}`)).json.status).toBe('ready_for_complete');
  });

  it('an over-long Idempotency-Key is refused', async () => {
    const res = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 1]]), { 'idempotency-key': 'k'.repeat(300) });
    expect(res.status).toBe(400);
    expectUcp(res.json);
  });
});
