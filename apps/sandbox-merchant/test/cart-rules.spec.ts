import { buyer, cart, expectTotalsAddUp, expectUcp, pay, startHarness, type Harness } from './harness';

describe('sandbox merchant: stock, discounts, escalation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.merchant.stop());

  it('applies a valid code and reports expired, invalid and repeated ones as warnings', async () => {
    const res = await h.call('POST', '/checkout-sessions', cart([['bouquet_roses', 2]], { buyer, discounts: { codes: ['10off', 'SPRING2020', 'BOGUS', '10OFF'] } }));
    expect(res.status).toBe(201);
    expectUcp(res.json);
    expectTotalsAddUp(res.json);
    expect(res.json.totals).toEqual([
      { type: 'subtotal', amount: 7000 },
      { type: 'discount', amount: -700, display_text: '10% Off' },
      { type: 'total', amount: 6300 },
    ]);
    expect(res.json.discounts.applied).toEqual([expect.objectContaining({ code: '10OFF', amount: 700, automatic: false })]);
    expect(res.json.messages.map((m: any) => [m.type, m.code, m.path])).toEqual([
      ['warning', 'discount_code_expired', '$.discounts.codes[1]'],
      ['warning', 'discount_code_invalid', '$.discounts.codes[2]'],
      ['warning', 'discount_code_already_applied', '$.discounts.codes[3]'],
    ]);
    expect(res.json.status).toBe('ready_for_complete');
    const cleared = await h.call('PUT', `/checkout-sessions/${res.json.id}`, cart([['bouquet_roses', 2]], { buyer, discounts: { codes: [] } }));
    expectUcp(cleared.json);
    expect(cleared.json.totals).toEqual([{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 7000 }]);
  });

  it('stacked codes never take the total below zero', async () => {
    const res = await h.call('POST', '/checkout-sessions', cart([['pot_ceramic', 1]], { buyer, discounts: { codes: ['FIXED500', 'WELCOME20', '10OFF'] } }));
    expectUcp(res.json);
    expectTotalsAddUp(res.json);
    expect(res.json.totals.at(-1)).toEqual({ type: 'total', amount: 1500 - 500 - 300 - 150 });
  });

  it('out of stock and unknown items are recoverable errors (200, incomplete)', async () => {
    const res = await h.call('POST', '/checkout-sessions', cart([['gardenias', 1], ['bouquet_roses', 1], ['no_such_flower', 1]], { buyer }));
    expect(res.status).toBe(201);
    expectUcp(res.json);
    expect(res.json.status).toBe('incomplete');
    expect(res.json.messages.map((m: any) => [m.code, m.severity, m.path])).toEqual([
      ['out_of_stock', 'recoverable', '$.line_items[0]'],
      ['item_unavailable', 'recoverable', '$.line_items[2]'],
    ]);
    const refused = await h.call('POST', `/checkout-sessions/${res.json.id}/complete`, pay());
    expect(refused.status).toBe(200);
    expect(refused.json.status).toBe('incomplete');
  });

  it('a cart with nothing sellable is a 200 error_response (no resource)', async () => {
    const res = await h.call('POST', '/checkout-sessions', cart([['no_such_flower', 1]]));
    expect(res.status).toBe(200);
    expectUcp(res.json);
    expect(res.json).toMatchObject({ ucp: { status: 'error' }, messages: [expect.objectContaining({ code: 'item_unavailable' })] });
  });

  it('a high-value cart requires escalation until the buyer approves it at continue_url', async () => {
    const res = await h.call('POST', '/checkout-sessions', cart([['orchid_white', 5]], { buyer }));
    expectUcp(res.json);
    expect(res.json.status).toBe('requires_escalation');
    expect(res.json.messages).toEqual([expect.objectContaining({ code: 'high_value_order', severity: 'requires_buyer_review' })]);
    expect(res.json.continue_url).toBe(`${h.merchant.url}/checkout/${res.json.id}`);
    const blocked = await h.call('POST', `/checkout-sessions/${res.json.id}/complete`, pay());
    expect(blocked.status).toBe(200);
    expect(blocked.json.status).toBe('requires_escalation');
    const page = await h.call('GET', `/checkout/${res.json.id}`);
    expect(page.json).toContain('Approve');
    const approved = await h.call('POST', `/checkout/${res.json.id}/approve`);
    expectUcp(approved.json);
    expect(approved.json.status).toBe('ready_for_complete');
    // A bigger cart than the approved one escalates again.
    const bigger = await h.call('PUT', `/checkout-sessions/${res.json.id}`, cart([['orchid_white', 6]], { buyer }));
    expect(bigger.json.status).toBe('requires_escalation');
    await h.call('PUT', `/checkout-sessions/${res.json.id}`, cart([['orchid_white', 5]], { buyer }));
    const done = await h.call('POST', `/checkout-sessions/${res.json.id}/complete`, pay());
    expectUcp(done.json);
    expect(done.json.status).toBe('completed');
  });
});
