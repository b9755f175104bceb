import { expectProblem } from './harness';
import { anonymous, asOperator, buyer, h, signed, useCommerceHarness } from './commerce-setup';

// Commerce transparency through the gateway (fake commerce): the Actor and query sent, the JSON
// shapes (counts as integers, details as objects), the auth modes and the validation of queries.

useCommerceHarness();

const T0 = '2026-11-21T18:00:00.000Z';

describe('GET /v1/commerce/shadow/compare', () => {
  it("should send the agent's window and filters and answer comparisons with a summary", async () => {
    const res = await signed(buyer, 'GET', '/v1/commerce/shadow/compare?from=2026-11-01T00:00:00.000Z&to=2026-11-20T00:00:00.000Z&merchant_domain=sandbox-merchant.local&limit=1');
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('compareShadow').request).toEqual({
      actor: { agentId: buyer.agentId, operator: false },
      from: new Date('2026-11-01T00:00:00.000Z'),
      to: new Date('2026-11-20T00:00:00.000Z'),
      merchantDomain: 'sandbox-merchant.local',
      page: { limit: 1, cursor: '' },
    });
    const body = res.json();
    expect(body.summary).toEqual({ shadow_sessions: 2, matched: 1, with_differences: 1 });
    expect(body.next_cursor).toBe('cur_2');
    expect(body.comparisons[0]).toMatchObject({
      cart_key: 'e'.repeat(64),
      shadow: { commerce_session_id: 'cs_shadow', status: 'ready_for_complete', approval: 'not_required', total: '63', discount_codes: ['10OFF'], created_at: T0 },
      live: { commerce_session_id: 'cs_live', total: '70' },
      differences: [{ field: 'total', shadow: '63', live: '70' }],
    });
    expect(body.comparisons[1]).toMatchObject({ live: null, differences: [], shadow: { unavailable_items: ['gardenias'] } });
  });

  it('should let the operator filter by buyer, default the window in commerce, and refuse anonymous callers and bad queries', async () => {
    const res = await asOperator('GET', `/v1/commerce/shadow/compare?buyer_agent_id=${encodeURIComponent(buyer.agentId)}`);
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('compareShadow').request).toMatchObject({ actor: { agentId: '', operator: true }, buyerAgentId: buyer.agentId, page: { limit: 0, cursor: '' } });
    expect(h.commerce.lastCall<{ from?: Date }>('compareShadow').request.from).toBeUndefined();
    expectProblem(await anonymous('GET', '/v1/commerce/shadow/compare'), 401, 'unauthenticated');
    expectProblem(await asOperator('GET', '/v1/commerce/shadow/compare?from=yesterday'), 400, 'validation_failed');
    expectProblem(await asOperator('GET', '/v1/commerce/shadow/compare?limit=0'), 400, 'validation_failed');
    expectProblem(await asOperator('GET', '/v1/commerce/shadow/compare?colour=red'), 400, 'validation_failed');
  });
});

describe('GET /v1/commerce/transparency/rollups/monthly', () => {
  it('should answer the month per currency with integer counts', async () => {
    const res = await asOperator('GET', '/v1/commerce/transparency/rollups/monthly?window=2026-09');
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('getMonthlyRollup').request).toEqual({ actor: { agentId: '', operator: true }, window: '2026-09' });
    expect(res.json()).toEqual({
      window: '2026-09',
      from: '2026-09-01T00:00:00.000Z',
      to: '2026-10-01T00:00:00.000Z',
      currencies: [{ currency: 'USD', spend: '82.345678', savings: '10', purchases: 2, escalations: 2, approvals_denied: 1, returns: 1, refunds: 1, chargebacks: 0, refunded: '20' }],
    });
  });

  it("should pass commerce's invalid_window, and refuse agents, anonymous callers and a missing window", async () => {
    expectProblem(await asOperator('GET', '/v1/commerce/transparency/rollups/monthly?window=2026-13'), 400, 'invalid_window');
    expectProblem(await asOperator('GET', '/v1/commerce/transparency/rollups/monthly'), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'GET', '/v1/commerce/transparency/rollups/monthly?window=2026-09'), 403, 'operator_token_required');
    expectProblem(await anonymous('GET', '/v1/commerce/transparency/rollups/monthly?window=2026-09'), 401, 'unauthenticated');
  });
});

describe('GET /v1/commerce/transparency/rollups/spend-savings', () => {
  it('should send the filters and answer a page of agents', async () => {
    const res = await asOperator('GET', '/v1/commerce/transparency/rollups/spend-savings?window=2026-10&agent_id=acme:agent:bob&currency=EUR&limit=10');
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('getSpendSavingsRollup').request).toEqual({
      actor: { agentId: '', operator: true },
      window: '2026-10',
      agentId: 'acme:agent:bob',
      currency: 'EUR',
      page: { limit: 10, cursor: '' },
    });
    expect(res.json()).toEqual({
      window: '2026-10',
      data: [{ agent_id: 'acme:agent:bob', currency: 'EUR', spend: '40', savings: '5', purchases: 1, refunded: '0', net_spend: '40' }],
      next_cursor: null,
    });
    expect((await asOperator('GET', '/v1/commerce/transparency/rollups/spend-savings')).json().window).toBeNull();
  });

  it('should refuse a bad currency or agent id, and agents', async () => {
    expect((await asOperator('GET', '/v1/commerce/transparency/rollups/spend-savings?currency=usd')).statusCode).toBe(400);
    expectProblem(await asOperator('GET', '/v1/commerce/transparency/rollups/spend-savings?agent_id=not%20an%20id'), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'GET', '/v1/commerce/transparency/rollups/spend-savings'), 403, 'operator_token_required');
  });
});

describe('GET /v1/commerce/transparency/purchases/{commerce_session_id}', () => {
  it('should answer the session, lifecycle, evidence refs, intent and case ids', async () => {
    const res = await asOperator('GET', '/v1/commerce/transparency/purchases/cks_1');
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('getSessionTransparency').request).toEqual({ actor: { agentId: '', operator: true }, commerceSessionId: 'cks_1' });
    const body = res.json();
    expect(body.session).toMatchObject({ commerce_session_id: 'cks_1', intent_id: 'int_1', status: 'ready_for_complete' });
    expect(body.lifecycle).toEqual([
      { seq: 1, kind: 'created', from: null, to: 'ready_for_complete/not_required/none', reason: null, at: T0 },
      { seq: 2, kind: 'canceled', from: 'ready_for_complete/not_required/none', to: 'canceled/not_required/none', reason: null, at: T0 },
    ]);
    expect(body.evidence).toEqual([{ evidence_id: 'evd_1', seq: 1, kind: 'merchant_request', operation: 'create_checkout', content_sha256: 'b'.repeat(64), hash: 'c'.repeat(64), recorded_at: T0 }]);
    expect(body).toMatchObject({ chain_valid: true, purchase: null, case_ids: ['case_1'], intent: { intent_id: 'int_1', budget: { amount: '100', currency: 'USD' } } });
  });

  it('should answer 404 for an unknown session and refuse agents', async () => {
    expectProblem(await asOperator('GET', '/v1/commerce/transparency/purchases/cks_unknown'), 404, 'checkout_session_not_found');
    expectProblem(await signed(buyer, 'GET', '/v1/commerce/transparency/purchases/cks_1'), 403, 'operator_token_required');
  });
});

describe('GET /v1/purchases/{deal_id}/timeline', () => {
  it("should send the buyer's actor and answer entries with details as objects", async () => {
    const res = await signed(buyer, 'GET', '/v1/purchases/deal_1/timeline');
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('getPurchaseTimeline').request).toEqual({ actor: { agentId: buyer.agentId, operator: false }, dealId: 'deal_1' });
    expect(res.json()).toEqual({
      deal_id: 'deal_1',
      commerce_session_id: 'cks_1',
      entries: [
        { at: T0, type: 'session.created', source_id: 'cks_1', details: { seq: 1, status: 'ready_for_complete' } },
        { at: T0, type: 'receipt', source_id: 'rcpt_1', details: { receipt_id: 'rcpt_1', amount: '34.2', currency: 'USD' } },
      ],
    });
  });

  it("should pass commerce's 403 and 404 and refuse anonymous callers", async () => {
    expectProblem(await signed(buyer, 'GET', '/v1/purchases/deal_foreign/timeline'), 403, 'not_deal_buyer');
    expectProblem(await asOperator('GET', '/v1/purchases/deal_unknown/timeline'), 404, 'purchase_not_found');
    expectProblem(await anonymous('GET', '/v1/purchases/deal_1/timeline'), 401, 'unauthenticated');
  });
});
