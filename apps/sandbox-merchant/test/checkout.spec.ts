import { buyer, cart, expectTotalsAddUp, expectUcp, pay, startHarness, ucp, type Harness } from './harness';

describe('sandbox merchant: profile and checkout lifecycle', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.merchant.stop());

  it('serves a valid business profile, cacheable, with its REST endpoint and P-256 key', async () => {
    const res = await h.call('GET', '/.well-known/ucp');
    expect(res.status).toBe(200);
    expect(ucp.validate('business_profile', res.json)).toEqual({ valid: true });
    expect(Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1])).toBeGreaterThanOrEqual(60);
    expect(res.headers.get('cache-control')).toMatch(/^public/);
    expect(res.json.ucp.services['dev.ucp.shopping'][0]).toMatchObject({ transport: 'rest', endpoint: h.merchant.url });
    expect(Object.keys(res.json.ucp.capabilities)).toEqual(expect.arrayContaining(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount']));
    expect(res.json.signing_keys).toEqual([expect.objectContaining({ kid: h.merchant.signingKey.kid, kty: 'EC', crv: 'P-256' })]);
  });

  it('creates (201) an incomplete session until the buyer email is known, then ready_for_complete', async () => {
    const created = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 2]]));
    expect(created.status).toBe(201);
    expectUcp(created.json);
    expect(created.json).toMatchObject({ status: 'incomplete', currency: 'USD', messages: [expect.objectContaining({ code: 'missing', path: '$.buyer.email' })] });
    expect(created.json.continue_url).toMatch(/^http/);
    expectTotalsAddUp(created.json);
    const updated = await h.call('PUT', `/checkout-sessions/${created.json.id}`, cart([['bouquet_roses', 2]], { buyer }));
    expect(updated.status).toBe(200);
    expectUcp(updated.json);
    expect(updated.json.status).toBe('ready_for_complete');
    expect(updated.json.totals).toEqual([{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 7000 }]);
    const got = await h.call('GET', `/checkout-sessions/${created.json.id}`);
    expectUcp(got.json);
    expect(got.json).toEqual(updated.json);
  });

  it('PUT is a full replacement: fields left out are cleared', async () => {
    const created = await h.call('POST', '/checkout-sessions', cart([['pot_ceramic', 1]], { buyer, discounts: { codes: ['10OFF'] } }));
    const replaced = await h.call('PUT', `/checkout-sessions/${created.json.id}`, cart([['bouquet_tulips', 1]]));
    expectUcp(replaced.json);
    expect(replaced.json.buyer).toBeUndefined();
    expect(replaced.json.discounts).toBeUndefined();
    expect(replaced.json.line_items).toEqual([expect.objectContaining({ item: expect.objectContaining({ id: 'bouquet_tulips' }), quantity: 1 })]);
  });

  it('completes a ready session with an order, then refuses to change it (409)', async () => {
    const created = await h.call('POST', '/checkout-sessions', cart([['bouquet_sunflowers', 1]], { buyer }));
    const done = await h.call('POST', `/checkout-sessions/${created.json.id}/complete`, pay());
    expect(done.status).toBe(200);
    expectUcp(done.json);
    expect(done.json.status).toBe('completed');
    expect(done.json.order).toMatchObject({ id: expect.stringMatching(/^ord_/), permalink_url: expect.stringContaining('/orders/') });
    expect(done.json.payment.instruments[0].credential).toEqual({ type: 'token' });
    expect(done.json.continue_url).toBeUndefined();
    for (const [method, path, body] of [
      ['PUT', '', cart([['bouquet_sunflowers', 1]])],
      ['POST', '/complete', pay()],
      ['POST', '/cancel', undefined],
    ] as const) {
      const res = await h.call(method, `/checkout-sessions/${created.json.id}${path}`, body);
      expect(res.status).toBe(409);
      expectUcp(res.json);
    }
  });

  it('declined payment: 200 with a payment_failed message, still ready_for_complete', async () => {
    const created = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 1]], { buyer }));
    const res = await h.call('POST', `/checkout-sessions/${created.json.id}/complete`, pay('fail_token'));
    expect(res.status).toBe(200);
    expectUcp(res.json);
    expect(res.json.status).toBe('ready_for_complete');
    expect(res.json.messages).toEqual([expect.objectContaining({ type: 'error', code: 'payment_failed' })]);
  });

  it('cancels a non-terminal session; a second cancel is 409', async () => {
    const created = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 1]]));
    const canceled = await h.call('POST', `/checkout-sessions/${created.json.id}/cancel`);
    expect(canceled.status).toBe(200);
    expectUcp(canceled.json);
    expect(canceled.json.status).toBe('canceled');
    expect((await h.call('POST', `/checkout-sessions/${created.json.id}/cancel`, {})).status).toBe(409);
  });

  it('pending_token: complete_in_progress, then completed once the payment settles', async () => {
    const created = await h.call('POST', '/checkout-sessions', cart([['orchid_white', 1]], { buyer }));
    const res = await h.call('POST', `/checkout-sessions/${created.json.id}/complete`, pay('pending_token'));
    expectUcp(res.json);
    expect(res.json.status).toBe('complete_in_progress');
    let status = res.json.status;
    for (let i = 0; i < 50 && status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await h.call('GET', `/checkout-sessions/${created.json.id}`)).json.status;
    }
    expect(status).toBe('completed');
  });

  it('an expired session reads as canceled', async () => {
    const created = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 1]], { buyer }));
    h.clock.now += 6 * 60 * 60 * 1000 + 1;
    const res = await h.call('GET', `/checkout-sessions/${created.json.id}`);
    h.clock.now -= 6 * 60 * 60 * 1000 + 1;
    expectUcp(res.json);
    expect(res.json.status).toBe('canceled');
  });
});
