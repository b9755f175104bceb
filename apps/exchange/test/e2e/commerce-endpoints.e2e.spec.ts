import { CommerceHttp, MERCHANT, sessionPath } from './commerce-http';
import { expectProblem, http } from './http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { newKey } from './wallet-http';

// Every commerce protocol endpoint of issue 15 through the gateway, against the built-in sandbox
// merchant: a success and its main failures (auth, validation, state, not a party).

let stack: Stack;
let c: CommerceHttp;
let buyer: RawAgent;
let signer: RawAgent;
let stranger: RawAgent;
let mandateId: string;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  c = new CommerceHttp(stack.baseUrl, stack.operatorToken);
  [buyer, signer, stranger] = await Promise.all([c.newAgent('buyer'), c.newAgent('signer'), c.newAgent('stranger')]);
  await c.fund(buyer, '400', 'USD');
  mandateId = (await c.createMandate(signer, buyer, { perTransaction: '100', total: '400' })).mandate_id;
});

afterAll(async () => {
  if (c) await c.expectLedgerOk();
  await stack?.stop();
});

/** A fresh ready session: one pot (15.00 USD), no approval needed (autonomous mandate). */
async function readySession(lines: Array<[string, number]> = [['pot_ceramic', 1]]) {
  const s = await c.expectStatus(c.createCheckout(buyer, c.checkoutBody(mandateId, lines)), 201);
  expect(s).toMatchObject({ status: 'ready_for_complete', approval: 'not_required' });
  return s;
}

describe('GET /.well-known/ucp', () => {
  it('serves the platform profile publicly, cacheable', async () => {
    const res = await http(stack.baseUrl, 'GET', '/.well-known/ucp');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/public/);
    expect(res.body.ucp.capabilities['dev.ucp.shopping.order'][0].config.webhook_url).toMatch(/\/v1\/commerce\/ucp\/webhooks\/orders$/);
  });
});

describe('GET /v1/commerce/ucp/merchants/{merchant_domain}/profile', () => {
  it('returns the merchant profile', async () => {
    const res = await c.expectStatus(c.as(buyer, 'GET', `/v1/commerce/ucp/merchants/${MERCHANT}/profile`), 200);
    expect(res).toMatchObject({ merchant_domain: MERCHANT, profile: { ucp: { version: '2026-04-08' } } });
  });

  it('424 profile_unreachable for a domain nobody serves, 400 for a malformed domain, 401 anonymous', async () => {
    expectProblem(await c.as(buyer, 'GET', '/v1/commerce/ucp/merchants/unknown-merchant.invalid/profile'), 424, 'profile_unreachable');
    expectProblem(await c.as(buyer, 'GET', '/v1/commerce/ucp/merchants/Not_A_Domain/profile'), 400, 'invalid_merchant_domain');
    expectProblem(await http(stack.baseUrl, 'GET', `/v1/commerce/ucp/merchants/${MERCHANT}/profile`), 401, 'unauthenticated');
  });
});

describe('POST /v1/commerce/ucp/negotiate', () => {
  it('negotiates checkout with the merchant', async () => {
    const res = await c.expectStatus(c.as(buyer, 'POST', '/v1/commerce/ucp/negotiate', { merchant_domain: MERCHANT }), 200);
    expect(res).toMatchObject({ status: 'ok', version: '2026-04-08' });
  });

  it('400 for a missing merchant_domain', async () => {
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/ucp/negotiate', {}), 400, 'validation_failed');
  });
});

describe('POST /v1/commerce/ucp/checkout/create', () => {
  it('creates a session mirrored from the merchant', async () => {
    const s = await readySession([['bouquet_tulips', 2]]);
    expect(s).toMatchObject({ merchant_domain: MERCHANT, currency: 'USD', total: '60', buyer_agent_id: buyer.agentId, mandate_id: mandateId });
    expect(s.merchant_checkout.id).toBe(s.merchant_checkout_id);
  });

  it('403 mandate_per_transaction_exceeded above the limit, acting_agent_mismatch for another buyer', async () => {
    // 4 × orchids … above 100 USD per transaction.
    expectProblem(await c.createCheckout(buyer, c.checkoutBody(mandateId, [['bouquet_roses', 3]])), 403, 'mandate_per_transaction_exceeded');
    expectProblem(await c.createCheckout(stranger, { ...c.checkoutBody(mandateId, [['pot_ceramic', 1]]), buyer_agent_id: buyer.agentId }), 403, 'acting_agent_mismatch');
  });

  it('403 mandate_not_for_agent when the mandate was granted to someone else', async () => {
    expectProblem(await c.createCheckout(stranger, c.checkoutBody(mandateId, [['pot_ceramic', 1]])), 403, 'mandate_not_for_agent');
  });
});

describe('GET /v1/commerce/ucp/checkout/{commerce_session_id}', () => {
  it('reads the session (buyer and operator), refreshed from the merchant on demand', async () => {
    const s = await readySession();
    const read = await c.expectStatus(c.as(buyer, 'GET', sessionPath(s.commerce_session_id, '?refresh=true')), 200);
    expect(read).toMatchObject({ commerce_session_id: s.commerce_session_id, status: 'ready_for_complete' });
    await c.expectStatus(c.op('GET', sessionPath(s.commerce_session_id)), 200);
  });

  it('403 not_session_buyer for another agent, 404 for an unknown session', async () => {
    const s = await readySession();
    expectProblem(await c.as(stranger, 'GET', sessionPath(s.commerce_session_id)), 403, 'not_session_buyer');
    expectProblem(await c.as(buyer, 'GET', sessionPath('cs_0190a0a0-0000-7000-8000-000000000000')), 404, 'checkout_session_not_found');
  });
});

describe('POST /v1/commerce/ucp/checkout/{commerce_session_id}/update', () => {
  it('replaces the cart at the merchant', async () => {
    const s = await readySession();
    const updated = await c.expectStatus(
      c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/update'), { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 3 }] }, { 'idempotency-key': newKey('upd') }),
      200,
    );
    expect(updated).toMatchObject({ total: '45', status: 'ready_for_complete' });
  });

  it('409 invalid_state once canceled, 403 for a stranger', async () => {
    const s = await readySession();
    expectProblem(await c.as(stranger, 'POST', sessionPath(s.commerce_session_id, '/update'), { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 2 }] }), 403, 'not_session_buyer');
    await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/cancel'), {}), 200);
    expectProblem(await c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/update'), { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 2 }] }), 409, 'invalid_state');
  });
});

describe('POST /v1/commerce/ucp/checkout/{commerce_session_id}/discount', () => {
  it('applies a valid code and reports an expired one, recording the savings', async () => {
    const s = await readySession([['bouquet_sunflowers', 2]]);
    const res = await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/discount'), { codes: ['FIXED500', 'SPRING2020'] }), 200);
    expect(res.applied).toEqual(['FIXED500']);
    expect(res.rejected).toEqual([expect.objectContaining({ code: 'SPRING2020', reason: 'discount_code_expired' })]);
    expect(res.session).toMatchObject({ total: '45', list_total: '50', savings: '5' });
  });

  it('400 validation_failed without codes', async () => {
    const s = await readySession();
    expectProblem(await c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/discount'), {}), 400, 'validation_failed');
  });
});

describe('POST /v1/commerce/ucp/checkout/{commerce_session_id}/cancel', () => {
  it('cancels at the merchant', async () => {
    const s = await readySession();
    const res = await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/cancel'), {}), 200);
    expect(res.status).toBe('canceled');
  });

  it('409 invalid_state when already canceled', async () => {
    const s = await readySession();
    await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/cancel'), {}), 200);
    expectProblem(await c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/cancel'), {}), 409, 'invalid_state');
  });
});

describe('POST /v1/commerce/ucp/checkout/{commerce_session_id}/approval', () => {
  let stepUpMandate: string;
  beforeAll(async () => {
    stepUpMandate = (
      await c.createMandate(signer, buyer, {
        perTransaction: '100',
        total: '200',
        autonomy: { mode: 'step_up', step_up_threshold: { amount: '10', currency: 'USD' }, approval_for_new_merchants: false },
      })
    ).mandate_id;
  });

  it('the signer denies: complete is then 403 approval_denied', async () => {
    const s = await c.expectStatus(c.createCheckout(buyer, c.checkoutBody(stepUpMandate, [['pot_ceramic', 1]])), 201);
    expect(s).toMatchObject({ approval: 'pending', approval_reason: 'step_up_threshold' });
    const denied = await c.expectStatus(c.as(signer, 'POST', sessionPath(s.commerce_session_id, '/approval'), c.approvalBody(signer, s, 'deny')), 200);
    expect(denied.approval).toBe('denied');
    expectProblem(await c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/complete'), {}, { 'idempotency-key': newKey('c') }), 403, 'approval_denied');
  });

  it('refuses another approver, a bad signature, and a second decision', async () => {
    const s = await c.expectStatus(c.createCheckout(buyer, c.checkoutBody(stepUpMandate, [['pot_ceramic', 1]])), 201);
    expectProblem(await c.as(stranger, 'POST', sessionPath(s.commerce_session_id, '/approval'), c.approvalBody(stranger, s, 'approve')), 403, 'not_mandate_signer');
    const forged = { ...c.approvalBody(signer, s, 'approve'), signature: stranger.signBase64('x') };
    expectProblem(await c.as(signer, 'POST', sessionPath(s.commerce_session_id, '/approval'), forged), 400, 'approval_signature_invalid');
    await c.expectStatus(c.as(signer, 'POST', sessionPath(s.commerce_session_id, '/approval'), c.approvalBody(signer, s, 'approve')), 200);
    expectProblem(await c.as(signer, 'POST', sessionPath(s.commerce_session_id, '/approval'), c.approvalBody(signer, s, 'approve')), 409, 'approval_not_pending');
  });
});

describe('POST /v1/commerce/ucp/checkout/{commerce_session_id}/complete', () => {
  it('pays the merchant and answers the purchase; a repeat answers the same purchase', async () => {
    const s = await readySession();
    const key = newKey('complete');
    const done = await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/complete'), {}, { 'idempotency-key': key }), 200);
    expect(done.purchase).toMatchObject({ amount: '15', currency: 'USD' });
    const again = await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/complete'), {}, { 'idempotency-key': key }), 200);
    expect(again.purchase.deal_id).toBe(done.purchase.deal_id);
  });

  it('a declined payment releases the hold (no money moves), 403 for a stranger', async () => {
    const before = await c.balance(buyer, 'USD');
    const s = await readySession();
    expectProblem(await c.as(stranger, 'POST', sessionPath(s.commerce_session_id, '/complete'), {}), 403, 'not_session_buyer');
    const payment = { instruments: [{ id: 'pi_fail', handler_id: 'mock_payment_handler', type: 'card', selected: true, credential: { type: 'token', token: 'fail_token' } }] };
    const res = await c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/complete'), { payment }, { 'idempotency-key': newKey('fail') });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await c.balance(buyer, 'USD')).toEqual(before);
    const after = await c.expectStatus(c.as(buyer, 'GET', sessionPath(s.commerce_session_id)), 200);
    expect(after.payment_stage).not.toBe('settled');
  });
});

describe('GET /v1/commerce/ucp/checkout/{commerce_session_id}/artifacts', () => {
  it('lists the hash-chained evidence, paginated', async () => {
    const s = await readySession();
    const first = await c.expectStatus(c.as(buyer, 'GET', sessionPath(s.commerce_session_id, '/artifacts?limit=1')), 200);
    expect(first.items).toHaveLength(1);
    expect(first.items[0]).toMatchObject({ seq: 1, kind: 'merchant_request', prev_hash: '0'.repeat(64) });
    expect(first.next_cursor).toEqual(expect.any(String));
    const rest = await c.expectStatus(c.as(buyer, 'GET', sessionPath(s.commerce_session_id, `/artifacts?cursor=${encodeURIComponent(first.next_cursor)}`)), 200);
    expect(rest.items[0].prev_hash).toBe(first.items[0].hash);
    expect(rest.chain_valid).toBe(true);
  });

  it('403 for a stranger, 400 for a bad limit', async () => {
    const s = await readySession();
    expectProblem(await c.as(stranger, 'GET', sessionPath(s.commerce_session_id, '/artifacts')), 403, 'not_session_buyer');
    expectProblem(await c.as(buyer, 'GET', sessionPath(s.commerce_session_id, '/artifacts?limit=0')), 400, 'validation_failed');
  });
});

describe('POST /v1/commerce/ucp/checkout/{commerce_session_id}/casefile/export', () => {
  it('exports an exchange-signed docket', async () => {
    const s = await readySession();
    const res = await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/casefile/export'), {}), 200);
    expect(res.docket.subject).toMatchObject({ commerce_session_id: s.commerce_session_id });
    expect(typeof res.docket.signature).toBe('string');
  });

  it('403 for a stranger', async () => {
    const s = await readySession();
    expectProblem(await c.as(stranger, 'POST', sessionPath(s.commerce_session_id, '/casefile/export'), {}), 403, 'not_session_buyer');
  });
});

describe('POST /v1/commerce/ucp/checkout/{commerce_session_id}/casefile/verify', () => {
  it('verifies the stored session, and finds a tampered docket invalid', async () => {
    const s = await readySession();
    expect((await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/casefile/verify'), {}), 200)).valid).toBe(true);
    const { docket } = await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/casefile/export'), {}), 200);
    docket.subject.merchant_domain = 'evil.example';
    const res = await c.expectStatus(c.as(buyer, 'POST', sessionPath(s.commerce_session_id, '/casefile/verify'), { docket }), 200);
    expect(res.valid).toBe(false);
  });
});

describe('POST /v1/commerce/ucp/webhooks/verify', () => {
  it('verifies a Standard Webhooks v1 signature and refuses a tampered body', async () => {
    const { createHmac } = await import('node:crypto');
    const secretBytes = Buffer.from('exchange-e2e-webhook-secret-0123');
    const secret = `whsec_${secretBytes.toString('base64')}`;
    const id = 'msg_e2e_1';
    const ts = String(Math.floor(Date.now() / 1000));
    const body = '{"type":"order.updated"}';
    const sig = createHmac('sha256', secretBytes).update(`${id}.${ts}.${body}`).digest('base64');
    const headers = { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sig}` };
    const ok = await c.expectStatus(c.as(buyer, 'POST', '/v1/commerce/ucp/webhooks/verify', { headers, body_base64: Buffer.from(body).toString('base64'), secret }), 200);
    expect(ok).toMatchObject({ valid: true, scheme: 'standard_webhooks_v1' });
    const bad = await c.expectStatus(
      c.as(buyer, 'POST', '/v1/commerce/ucp/webhooks/verify', { headers, body_base64: Buffer.from(body + ' ').toString('base64'), secret }),
      200,
    );
    expect(bad.valid).toBe(false);
  });

  it('400 when body_base64 is missing', async () => {
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/ucp/webhooks/verify', { headers: {} }), 400, 'validation_failed');
  });
});
