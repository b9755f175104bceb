import { errors } from '@exchange/platform';
import { expectProblem } from './harness';
import { actorOf, anonymous, asOperator, buyer, C, h, other, signed, useCommerceHarness } from './commerce-setup';
import { UNKNOWN } from './fake-commerce';

// Checkout sessions through the gateway (fake commerce): create/read/update/complete/cancel and
// approval — what reaches commerce (Actor, JSON text, enums, keys), the session JSON, the
// acting-agent checks the gateway makes, validation, and commerce's codes carried through.

useCommerceHarness();

const BASE = '/v1/commerce/ucp/checkout';
const createBody = (over: Record<string, unknown> = {}) => ({
  mandate_id: 'mdt_1',
  merchant_domain: 'sandbox-merchant.local',
  line_items: [{ item: { id: 'sku-1' }, quantity: 2 }],
  ...over,
});

describe('POST /v1/commerce/ucp/checkout/create', () => {
  it('should create a live session for the signing agent and answer its JSON', async () => {
    const res = await signed(buyer, 'POST', `${BASE}/create`, createBody({ buyer: { email: 'b@example.com' }, context: { address_country: 'US' }, discount_codes: ['WELCOME10'] }), { 'idempotency-key': 'ck-1' });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe(`${BASE}/cks_1`);
    expect(h.commerce.lastCall('createCheckout').request).toEqual({
      actor: { agentId: buyer.agentId, operator: false },
      buyerAgentId: buyer.agentId,
      mandateId: 'mdt_1',
      merchantDomain: 'sandbox-merchant.local',
      lineItemsJson: '[{"item":{"id":"sku-1"},"quantity":2}]',
      buyerJson: '{"email":"b@example.com"}',
      contextJson: '{"address_country":"US"}',
      discountCodes: ['WELCOME10'],
      mode: C.SessionMode.SESSION_MODE_LIVE,
      idempotencyKey: 'ck-1',
    });
    expect(res.json()).toEqual({
      commerce_session_id: 'cks_1',
      buyer_agent_id: buyer.agentId,
      mandate_id: 'mdt_1',
      merchant_domain: 'sandbox-merchant.local',
      mode: 'live',
      status: 'ready_for_complete',
      approval: 'not_required',
      approval_reason: null,
      merchant_checkout_id: 'chk_1',
      currency: 'USD',
      total: '34.2',
      list_total: '38',
      savings: '3.8',
      discount_codes: ['WELCOME10'],
      merchant_checkout: { id: 'chk_1', line_items: [{ item: { id: 'sku-1' }, quantity: 2 }] },
      payment_stage: 'none',
      hold_id: null,
      deal_id: null,
      receipt_id: null,
      order_id: null,
      continue_url: null,
      evidence_head: 'a'.repeat(64),
      intent_id: null,
      origin: null,
      failure_reason: null,
      created_at: '2026-11-21T18:00:00.000Z',
      updated_at: '2026-11-21T18:00:00.000Z',
    });
  });

  it('should send shadow mode and an intent, and mark a replayed answer', async () => {
    const res = await signed(buyer, 'POST', `${BASE}/create`, createBody({ mode: 'shadow', intent_id: 'int_1', idempotency_key: 'replayed-key' }));
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.json()).toMatchObject({ mode: 'shadow', intent_id: 'int_1' });
    expect(h.commerce.lastCall('createCheckout').request).toMatchObject({ mode: C.SessionMode.SESSION_MODE_SHADOW, intentId: 'int_1', idempotencyKey: 'replayed-key' });
  });

  it.each([
    ['a contract', { contract_id: 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e' }, { contractId: 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e' }],
    ['a workflow run', { workflow_run_id: 'run_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e' }, { workflowRunId: 'run_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e' }],
  ])('should send an origin naming %s and answer it in the session', async (_name, origin, proto) => {
    const res = await signed(buyer, 'POST', `${BASE}/create`, createBody({ origin }));
    expect(res.statusCode).toBe(201);
    expect(h.commerce.lastCall('createCheckout').request).toMatchObject({ origin: proto });
    expect(res.json().origin).toEqual(origin);
  });

  it.each([
    ['both ids', { contract_id: 'ctr_1', workflow_run_id: 'run_1' }],
    ['no id', {}],
    ['an unknown origin field', { listing_id: 'lst_1' }],
    ['an empty id', { contract_id: '' }],
  ])('should refuse an origin with %s (400 validation_failed) without calling commerce', async (_name, origin) => {
    const before = h.commerce.calls.length;
    expectProblem(await signed(buyer, 'POST', `${BASE}/create`, createBody({ origin })), 400, 'validation_failed');
    expect(h.commerce.calls.length).toBe(before);
  });

  it.each([
    ['origin_not_allowed', 403, errors.permissionDenied('origin_not_allowed', 'not a party')],
    ['contract_not_found', 404, errors.notFound('contract', 'ctr_1')],
    ['workflow_run_not_found', 404, errors.notFound('workflow_run', 'run_1')],
  ] as const)('should carry the origin refusal %s as %i', async (code, httpStatus, err) => {
    h.commerce.failNext('createCheckout', err);
    expectProblem(await signed(buyer, 'POST', `${BASE}/create`, createBody({ origin: { contract_id: 'ctr_1' } })), httpStatus, code);
  });

  it('should let the operator act for an agent (X-Agent-Id) and refuse the operator without one', async () => {
    expect((await asOperator('POST', `${BASE}/create`, createBody(), { 'x-agent-id': buyer.agentId })).statusCode).toBe(201);
    expect(actorOf('createCheckout')).toEqual({ agentId: buyer.agentId, operator: true });
    const body = expectProblem(await asOperator('POST', `${BASE}/create`, createBody()), 400, 'validation_failed');
    expect(body.errors).toEqual([{ pointer: '/buyer_agent_id', message: 'is required without an acting agent (X-Agent-Id)' }]);
  });

  it('should refuse another buyer than the acting agent (403 acting_agent_mismatch) without calling commerce', async () => {
    const before = h.commerce.calls.length;
    expectProblem(await signed(buyer, 'POST', `${BASE}/create`, createBody({ buyer_agent_id: other.agentId })), 403, 'acting_agent_mismatch');
    expect(h.commerce.calls.length).toBe(before);
  });

  it.each([
    ['no line items', createBody({ line_items: [] })],
    ['a quantity of 0', createBody({ line_items: [{ item: { id: 'x' }, quantity: 0 }] })],
    ['an item without id', createBody({ line_items: [{ item: {}, quantity: 1 }] })],
    ['a mode that is not live or shadow', createBody({ mode: 'dry_run' })],
    ['buyer that is not an object', createBody({ buyer: 'me' })],
    ['NUL inside a free-form buyer key', createBody({ buyer: { 'e\u0000mail': 'x' } })],
    ['an unknown field', createBody({ total: '1' })],
  ])('should answer 400 for %s', async (_name, payload) => {
    expectProblem(await signed(buyer, 'POST', `${BASE}/create`, payload), 400, 'validation_failed');
  });

  it('should refuse JSON nested deeper than 64 levels before parsing it', async () => {
    let deep: unknown = {};
    for (let i = 0; i < 70; i++) deep = { a: deep };
    expectProblem(await signed(buyer, 'POST', `${BASE}/create`, createBody({ context: deep })), 400, 'payload_too_deep');
  });

  it.each([
    ['mandate_not_found', 404, errors.notFound('mandate', 'mdt_1')],
    ['mandate_per_transaction_exceeded', 403, errors.permissionDenied('mandate_per_transaction_exceeded', 'total 120 > 100')],
    ['ucp_payload_invalid', 400, errors.invalidArgument('ucp_payload_invalid', 'line_items[0].quantity')],
  ] as const)('should carry %s as %i', async (code, httpStatus, err) => {
    h.commerce.failNext('createCheckout', err);
    expectProblem(await signed(buyer, 'POST', `${BASE}/create`, createBody()), httpStatus, code);
  });

  it('should refuse anonymous callers', async () => {
    expectProblem(await anonymous('POST', `${BASE}/create`, createBody()), 401, 'unauthenticated');
  });
});

describe('GET /v1/commerce/ucp/checkout/{commerce_session_id}', () => {
  it('should read the session with the caller as Actor, refreshing on request', async () => {
    const res = await signed(buyer, 'GET', `${BASE}/cks_7?refresh=true`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ commerce_session_id: 'cks_7', status: 'ready_for_complete' });
    expect(h.commerce.lastCall('getCheckout').request).toEqual({ actor: { agentId: buyer.agentId, operator: false }, commerceSessionId: 'cks_7', refresh: true });
    expect((await asOperator('GET', `${BASE}/cks_7`)).statusCode).toBe(200);
    expect(h.commerce.lastCall('getCheckout').request).toEqual({ actor: { agentId: '', operator: true }, commerceSessionId: 'cks_7', refresh: false });
  });

  it('should carry 404 checkout_session_not_found and 403 not_session_buyer', async () => {
    expectProblem(await signed(buyer, 'GET', `${BASE}/${UNKNOWN}`), 404, 'checkout_session_not_found');
    h.commerce.failNext('getCheckout', errors.permissionDenied('not_session_buyer', 'not your session'));
    expectProblem(await signed(other, 'GET', `${BASE}/cks_7`), 403, 'not_session_buyer');
  });

  it('should refuse a malformed session id', async () => {
    expectProblem(await signed(buyer, 'GET', `${BASE}/cks%20bad`), 400, 'validation_failed');
  });
});

describe('POST …/update', () => {
  it('should send only the fields given, and discount codes as a replacing list', async () => {
    const res = await signed(buyer, 'POST', `${BASE}/cks_7/update`, { line_items: [{ item: { id: 'sku-2' }, quantity: 1 }], discount_codes: [] });
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('updateCheckout').request).toEqual({
      actor: { agentId: buyer.agentId, operator: false },
      commerceSessionId: 'cks_7',
      lineItemsJson: '[{"item":{"id":"sku-2"},"quantity":1}]',
      discountCodes: { codes: [] },
      idempotencyKey: '',
    });
    await signed(buyer, 'POST', `${BASE}/cks_7/update`, { buyer: { first_name: 'A' } });
    expect(h.commerce.lastCall('updateCheckout').request).toEqual({ actor: { agentId: buyer.agentId, operator: false }, commerceSessionId: 'cks_7', buyerJson: '{"first_name":"A"}', idempotencyKey: '' });
  });

  it('should refuse different body and header keys (400 idempotency_key_mismatch)', async () => {
    expectProblem(await signed(buyer, 'POST', `${BASE}/cks_7/update`, { idempotency_key: 'a' }, { 'idempotency-key': 'b' }), 400, 'idempotency_key_mismatch');
  });
});

describe('POST …/complete', () => {
  it('should answer the completed session and its purchase with the receipt as an object', async () => {
    const res = await signed(buyer, 'POST', `${BASE}/cks_7/complete`, { payment: { instruments: [{ id: 'i1', handler_id: 'h1' }] } });
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('completeCheckout').request).toMatchObject({ commerceSessionId: 'cks_7', paymentJson: '{"instruments":[{"id":"i1","handler_id":"h1"}]}' });
    const body = res.json();
    expect(body.session).toMatchObject({ status: 'completed', payment_stage: 'settled', deal_id: 'deal_1', receipt_id: 'rcpt_1', order_id: 'ord_1' });
    expect(body.purchase).toEqual({
      deal_id: 'deal_1',
      commerce_session_id: 'cks_7',
      buyer_agent_id: 'acme:agent:buyer-1',
      merchant_domain: 'sandbox-merchant.local',
      amount: '34.2',
      currency: 'USD',
      receipt_id: 'rcpt_1',
      receipt: { receipt_id: 'rcpt_1', amount: '34.2' },
      order_id: 'ord_1',
      completed_at: '2026-11-21T18:00:00.000Z',
      origin: null,
    });
  });

  it('should accept an empty body (the default instrument)', async () => {
    const res = await h.app.inject({ method: 'POST', url: `${BASE}/cks_7/complete`, headers: buyer.signedHeaders('POST', `${BASE}/cks_7/complete`) });
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall<{ paymentJson?: string }>('completeCheckout').request.paymentJson).toBeUndefined();
  });

  it.each([
    ['approval_required', 409, errors.failedPrecondition('approval_required', 'waiting for the signer', { reason: 'step_up_threshold' })],
    ['checkout_not_ready', 409, errors.failedPrecondition('checkout_not_ready', 'merchant says incomplete')],
    ['approval_denied', 403, errors.permissionDenied('approval_denied', 'the signer denied it')],
    ['totals_mismatch', 400, errors.failedPrecondition('totals_mismatch', 'subtotal + tax != total')],
    ['merchant_protocol_error', 502, errors.failedPrecondition('merchant_protocol_error', 'no totals')],
  ] as const)('should carry %s as %i', async (code, httpStatus, err) => {
    h.commerce.failNext('completeCheckout', err);
    expectProblem(await signed(buyer, 'POST', `${BASE}/cks_7/complete`, {}), httpStatus, code);
  });

  it('should keep the problem details commerce sends (approval_required reason)', async () => {
    h.commerce.failNext('completeCheckout', errors.failedPrecondition('approval_required', 'waiting for the signer', { reason: 'new_merchant' }));
    expect(expectProblem(await signed(buyer, 'POST', `${BASE}/cks_7/complete`, {}), 409, 'approval_required')).toMatchObject({ reason: 'new_merchant' });
  });
});

describe('POST …/cancel', () => {
  it('should cancel with the key from the header', async () => {
    const res = await signed(buyer, 'POST', `${BASE}/cks_7/cancel`, {}, { 'idempotency-key': 'cancel-1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'canceled' });
    expect(h.commerce.lastCall('cancelCheckout').request).toEqual({ actor: { agentId: buyer.agentId, operator: false }, commerceSessionId: 'cks_7', idempotencyKey: 'cancel-1' });
  });

  it('should carry 404 for an unknown session', async () => {
    expectProblem(await signed(buyer, 'POST', `${BASE}/${UNKNOWN}/cancel`, {}), 404, 'checkout_session_not_found');
  });
});

describe('POST …/approval', () => {
  it('should send the decision of the acting approver', async () => {
    const res = await signed(other, 'POST', `${BASE}/cks_7/approval`, { decision: 'deny', approver_id: other.agentId, signature: 'c2ln' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ approval: 'denied' });
    expect(h.commerce.lastCall('submitApproval').request).toEqual({
      actor: { agentId: other.agentId, operator: false },
      commerceSessionId: 'cks_7',
      decision: C.ApprovalDecision.APPROVAL_DECISION_DENY,
      approverId: other.agentId,
      signature: 'c2ln',
    });
  });

  it('should refuse an approver other than the acting agent, and an unknown decision', async () => {
    expectProblem(await signed(buyer, 'POST', `${BASE}/cks_7/approval`, { decision: 'approve', approver_id: other.agentId, signature: 'c2ln' }), 403, 'acting_agent_mismatch');
    expectProblem(await signed(buyer, 'POST', `${BASE}/cks_7/approval`, { decision: 'maybe', approver_id: buyer.agentId, signature: 'c2ln' }), 400, 'validation_failed');
  });

  it.each([
    ['not_mandate_signer', 403, errors.permissionDenied('not_mandate_signer', 'only the signer approves')],
    ['approval_signature_invalid', 400, errors.invalidArgument('approval_signature_invalid', 'bad signature')],
    ['approval_not_pending', 409, errors.failedPrecondition('approval_not_pending', 'approval is not_required')],
  ] as const)('should carry %s as %i', async (code, httpStatus, err) => {
    h.commerce.failNext('submitApproval', err);
    expectProblem(await signed(buyer, 'POST', `${BASE}/cks_7/approval`, { decision: 'approve', approver_id: buyer.agentId, signature: 'c2ln' }), httpStatus, code);
  });
});
