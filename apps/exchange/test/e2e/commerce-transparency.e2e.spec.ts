import { CommerceHttp, sessionPath } from './commerce-http';
import { expectProblem, http } from './http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { eventually, newKey } from './wallet-http';

// Commerce transparency through the gateway, as an agent and the operator see it with no SDK: a
// live purchase of 2 roses with step-up approval (70 USD) and a shadow session of the same cart
// with a 10% code; then shadow compare, the month's rollups, the session's record and the
// purchase's timeline, each with its refusals (anonymous, agent on operator routes, bad window,
// unknown ids).

let stack: Stack;
let c: CommerceHttp;
let buyer: RawAgent;
let signer: RawAgent;
let stranger: RawAgent;
let liveId: string;
let shadowId: string;
let dealId: string;
let month: string;
let caseId: string;

beforeAll(async () => {
  stack = await bootStack();
  c = new CommerceHttp(stack.baseUrl, stack.operatorToken);
  [buyer, signer, stranger] = await Promise.all([c.newAgent('tp-buyer'), c.newAgent('tp-signer'), c.newAgent('tp-stranger')]);
  await c.fund(buyer, '200', 'USD');
  const mandate = await c.createMandate(signer, buyer, {
    perTransaction: '100',
    total: '300',
    autonomy: { mode: 'step_up', step_up_threshold: { amount: '50', currency: 'USD' }, approval_for_new_merchants: false },
  });
  const live = await c.expectStatus(c.createCheckout(buyer, c.checkoutBody(mandate.mandate_id, [['bouquet_roses', 2]])), 201);
  liveId = live.commerce_session_id;
  await c.expectStatus(c.as(signer, 'POST', sessionPath(liveId, '/approval'), c.approvalBody(signer, live, 'approve')), 200);
  const done = await c.expectStatus(c.as(buyer, 'POST', sessionPath(liveId, '/complete'), {}, { 'idempotency-key': newKey('complete') }), 200);
  dealId = done.purchase.deal_id;
  month = (done.purchase.completed_at as string).slice(0, 7);
  const shadow = await c.expectStatus(c.createCheckout(buyer, c.checkoutBody(mandate.mandate_id, [['bouquet_roses', 2]], { mode: 'shadow', discount_codes: ['10OFF'] })), 201);
  shadowId = shadow.commerce_session_id;
  // After the purchase: the buyer rates it and opens a refund case (not decided: nothing credited).
  await c.expectStatus(c.as(buyer, 'POST', '/v1/commerce/feedback/record', { deal_id: dealId, rating: 4, comment: 'one rose wilted' }), 201);
  const opened = await c.expectStatus(c.as(buyer, 'POST', '/v1/post-purchase/cases', { deal_id: dealId, type: 'refund', reason: 'one rose wilted', amount: '10' }), 201);
  caseId = opened.case_id;
});

afterAll(async () => {
  await stack?.stop();
});

describe('GET /v1/commerce/shadow/compare', () => {
  it('shows the buyer its shadow session against the live one of the same cart', async () => {
    const res = await c.expectStatus(c.as(buyer, 'GET', '/v1/commerce/shadow/compare'), 200);
    expect(res.summary).toEqual({ shadow_sessions: 1, matched: 1, with_differences: 1 });
    const [cmp] = res.comparisons;
    expect(cmp).toMatchObject({ buyer_agent_id: buyer.agentId, shadow: { commerce_session_id: shadowId, total: '63' }, live: { commerce_session_id: liveId, total: '70', status: 'completed' } });
    expect(cmp.differences).toEqual(
      expect.arrayContaining([
        { field: 'status', shadow: expect.any(String), live: 'completed' },
        { field: 'total', shadow: '63', live: '70' },
        { field: 'savings', shadow: '7', live: '0' },
        { field: 'discount_codes', shadow: '10OFF', live: '' },
      ]),
    );
    const stranger_ = await c.expectStatus(c.as(stranger, 'GET', '/v1/commerce/shadow/compare'), 200);
    expect(stranger_.summary.shadow_sessions).toBe(0);
    const all = await c.expectStatus(c.op('GET', `/v1/commerce/shadow/compare?buyer_agent_id=${encodeURIComponent(buyer.agentId)}`), 200);
    expect(all.summary.shadow_sessions).toBe(1);
  });

  it('401 anonymous, 403 another buyer, 400 a reversed window', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', '/v1/commerce/shadow/compare'), 401, 'unauthenticated');
    expectProblem(await c.as(stranger, 'GET', `/v1/commerce/shadow/compare?buyer_agent_id=${encodeURIComponent(buyer.agentId)}`), 403, 'acting_agent_mismatch');
    expectProblem(await c.op('GET', '/v1/commerce/shadow/compare?from=2026-11-02T00:00:00.000Z&to=2026-11-01T00:00:00.000Z'), 400, 'invalid_window');
  });
});

describe('GET /v1/commerce/transparency/rollups/monthly', () => {
  it("sums the month's purchase and escalation exactly", async () => {
    const res = await c.expectStatus(c.op('GET', `/v1/commerce/transparency/rollups/monthly?window=${month}`), 200);
    // One purchase of 2 × 35 = 70 USD at list price; two sessions escalated (live 70 and shadow 63, both over the 50 step-up),
    // none denied; one refund case opened, not credited.
    expect(res.currencies).toEqual([
      { currency: 'USD', spend: '70', savings: '0', purchases: 1, escalations: 2, approvals_denied: 0, returns: 0, refunds: 1, chargebacks: 0, refunded: '0' },
    ]);
  });

  it('401 anonymous, 403 an agent, 400 a window that is not YYYY-MM', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', `/v1/commerce/transparency/rollups/monthly?window=${month}`), 401, 'unauthenticated');
    expectProblem(await c.as(buyer, 'GET', `/v1/commerce/transparency/rollups/monthly?window=${month}`), 403, 'operator_token_required');
    expectProblem(await c.op('GET', '/v1/commerce/transparency/rollups/monthly?window=2026-13'), 400, 'invalid_window');
  });
});

describe('GET /v1/commerce/transparency/rollups/spend-savings', () => {
  it("gives the buyer's spend and savings", async () => {
    const res = await c.expectStatus(c.op('GET', `/v1/commerce/transparency/rollups/spend-savings?window=${month}`), 200);
    expect(res).toEqual({
      window: month,
      data: [{ agent_id: buyer.agentId, currency: 'USD', spend: '70', savings: '0', purchases: 1, refunded: '0', net_spend: '70' }],
      next_cursor: null,
    });
    const none = await c.expectStatus(c.op('GET', `/v1/commerce/transparency/rollups/spend-savings?agent_id=${encodeURIComponent(stranger.agentId)}`), 200);
    expect(none.data).toEqual([]);
  });

  it('401 anonymous, 403 an agent, 400 a bad window', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', '/v1/commerce/transparency/rollups/spend-savings'), 401, 'unauthenticated');
    expectProblem(await c.as(buyer, 'GET', '/v1/commerce/transparency/rollups/spend-savings'), 403, 'operator_token_required');
    expectProblem(await c.op('GET', '/v1/commerce/transparency/rollups/spend-savings?window=last-month'), 400, 'invalid_window');
  });
});

describe('GET /v1/commerce/transparency/purchases/{commerce_session_id}', () => {
  it('gives the session, its lifecycle, evidence refs, a valid chain and the purchase', async () => {
    const res = await c.expectStatus(c.op('GET', `/v1/commerce/transparency/purchases/${liveId}`), 200);
    expect(res.session).toMatchObject({ commerce_session_id: liveId, status: 'completed', deal_id: dealId });
    expect(res.lifecycle.map((e: { kind: string }) => e.kind)).toEqual(['created', 'approval_requested', 'approval_decided', 'completed']);
    expect(res.lifecycle[0].from).toBeNull();
    for (let i = 1; i < res.lifecycle.length; i++) expect(res.lifecycle[i].from).toBe(res.lifecycle[i - 1].to);
    expect(res.lifecycle[3].to).toBe('completed/approved/settled');
    expect(res.evidence.length).toBeGreaterThan(3);
    expect(res.evidence[0]).toEqual({ evidence_id: expect.any(String), seq: 1, kind: 'merchant_request', operation: 'create_checkout', content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), hash: expect.stringMatching(/^[0-9a-f]{64}$/), recorded_at: expect.any(String) });
    expect(res.chain_valid).toBe(true);
    expect(res.purchase).toMatchObject({ deal_id: dealId, amount: '70', currency: 'USD' });
    expect(res.case_ids).toEqual([caseId]);
  });

  it('401 anonymous, 403 an agent (even the buyer), 404 an unknown session', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', `/v1/commerce/transparency/purchases/${liveId}`), 401, 'unauthenticated');
    expectProblem(await c.as(buyer, 'GET', `/v1/commerce/transparency/purchases/${liveId}`), 403, 'operator_token_required');
    expectProblem(await c.op('GET', '/v1/commerce/transparency/purchases/cs_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e'), 404, 'checkout_session_not_found');
  });
});

describe('GET /v1/purchases/{deal_id}/timeline', () => {
  it('gives the buyer every state change, the receipt, the order webhook, the feedback and the case in time order', async () => {
    const res = await eventually(
      () => c.expectStatus(c.as(buyer, 'GET', `/v1/purchases/${dealId}/timeline`), 200),
      (t) => t.entries.some((e: { type: string }) => e.type === 'order_webhook'),
    );
    expect(res).toMatchObject({ deal_id: dealId, commerce_session_id: liveId });
    const types = res.entries.map((e: { type: string }) => e.type);
    // The merchant may post its order webhook before the settlement commits: it is in the list, wherever its time puts it.
    const rest = types.filter((t: string) => t !== 'order_webhook');
    expect(rest.slice(0, 5)).toEqual(['session.created', 'session.approval_requested', 'session.approval_decided', 'session.completed', 'receipt']);
    // Feedback, then the case, unless both fall in one millisecond (ties put cases before feedback).
    expect([...rest.slice(5)].sort()).toEqual(['case.opened', 'feedback']);
    expect(res.entries.find((e: { type: string }) => e.type === 'feedback').details).toMatchObject({ rating: 4, comment: 'one rose wilted' });
    expect(res.entries.find((e: { type: string }) => e.type === 'case.opened')).toMatchObject({ source_id: caseId, details: { amount: '10', to_status: 'open' } });
    const ats = res.entries.map((e: { at: string }) => Date.parse(e.at));
    expect([...ats].sort((a, b) => a - b)).toEqual(ats);
    expect(res.entries.find((e: { type: string }) => e.type === 'receipt').details).toMatchObject({ amount: '70', currency: 'USD' });
    expect((await c.expectStatus(c.op('GET', `/v1/purchases/${dealId}/timeline`), 200)).entries.length).toBe(res.entries.length);
  });

  it('401 anonymous, 403 another agent, 404 an unknown deal', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', `/v1/purchases/${dealId}/timeline`), 401, 'unauthenticated');
    expectProblem(await c.as(stranger, 'GET', `/v1/purchases/${dealId}/timeline`), 403, 'not_deal_buyer');
    expectProblem(await c.op('GET', '/v1/purchases/deal_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e/timeline'), 404, 'purchase_not_found');
  });
});
