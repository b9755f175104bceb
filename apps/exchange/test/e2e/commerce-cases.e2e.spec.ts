import { formatAmount, parseAmount } from '@exchange/platform';
import { CommerceHttp, sessionPath } from './commerce-http';
import { expectProblem, http } from './http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { newKey } from './wallet-http';

// Post-purchase cases through the gateway, as an agent and the operator see them with no SDK: a
// purchase of 2 roses (70 USD) at the sandbox merchant, a refund case opened by the buyer,
// evidence added, reviewed and approved by the operator — the buyer's USD balance goes back up by
// exactly the refund, with a signed refund receipt — and each endpoint's refusals (anonymous,
// validation, state, not a party). The ledger checks out at the end.

const CASES = '/v1/post-purchase/cases';
const casePath = (id: string, suffix = '') => `${CASES}/${encodeURIComponent(id)}${suffix}`;

let stack: Stack;
let c: CommerceHttp;
let buyer: RawAgent;
let signer: RawAgent;
let stranger: RawAgent;
let dealId: string;
let settlementReceiptId: string;
let caseId: string;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  c = new CommerceHttp(stack.baseUrl, stack.operatorToken);
  [buyer, signer, stranger] = await Promise.all([c.newAgent('pp-buyer'), c.newAgent('pp-signer'), c.newAgent('pp-stranger')]);
  await c.fund(buyer, '100', 'USD');
  const mandate = await c.createMandate(signer, buyer, { perTransaction: '100', total: '300', autonomy: { mode: 'autonomous', approval_for_new_merchants: false } });
  const session = await c.expectStatus(c.createCheckout(buyer, c.checkoutBody(mandate.mandate_id, [['bouquet_roses', 2]])), 201);
  const done = await c.expectStatus(c.as(buyer, 'POST', sessionPath(session.commerce_session_id, '/complete'), {}, { 'idempotency-key': newKey('complete') }), 200);
  dealId = done.purchase.deal_id;
  settlementReceiptId = done.purchase.receipt_id;
});

afterAll(async () => {
  await c?.expectLedgerOk();
  await stack?.stop();
});

describe('POST /v1/post-purchase/cases', () => {
  it('opens a refund case for the buyer, and replays it under the same key', async () => {
    const body = { deal_id: dealId, type: 'refund', reason: 'two stems arrived broken', amount: '20', evidence_refs: ['photo:1'] };
    const key = newKey('case');
    const res = await c.as(buyer, 'POST', CASES, body, { 'idempotency-key': key });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ deal_id: dealId, buyer_agent_id: buyer.agentId, type: 'refund', amount: '20', currency: 'USD', status: 'open', evidence_refs: ['photo:1'], refund_state: 'none', refund_receipt_id: null });
    caseId = res.body.case_id;
    expect(res.headers.get('location')).toBe(casePath(caseId));
    const again = await c.as(buyer, 'POST', CASES, body, { 'idempotency-key': key });
    expect({ status: again.status, replayed: again.headers.get('idempotent-replayed'), id: again.body.case_id }).toEqual({ status: 201, replayed: 'true', id: caseId });
  });

  it('401 anonymous, 400 bad body, 403 not the buyer, 404 unknown deal, 409 more than was paid', async () => {
    expectProblem(await http(stack.baseUrl, 'POST', CASES, { body: { deal_id: dealId, type: 'refund', reason: 'x' } }), 401, 'unauthenticated');
    expectProblem(await c.as(buyer, 'POST', CASES, { deal_id: dealId, type: 'exchange', reason: 'x' }), 400, 'validation_failed');
    expectProblem(await c.as(buyer, 'POST', CASES, { deal_id: dealId, type: 'refund', reason: 'x', amount: '-3' }), 400, 'invalid_amount');
    expectProblem(await c.as(stranger, 'POST', CASES, { deal_id: dealId, type: 'refund', reason: 'x' }), 403, 'not_deal_buyer');
    expectProblem(await c.op('POST', CASES, { deal_id: dealId, type: 'refund', reason: 'x' }), 403, 'not_deal_buyer');
    expectProblem(await c.as(buyer, 'POST', CASES, { deal_id: 'deal_nope', type: 'refund', reason: 'x' }), 404, 'purchase_not_found');
    const over = await c.as(buyer, 'POST', CASES, { deal_id: dealId, type: 'chargeback', reason: 'x', amount: '70.5' });
    expectProblem(over, 409, 'refund_exceeds_paid');
    expect(over.body).toMatchObject({ paid: '70', refunded: '0', requested: '70.5' });
  });
});

describe('GET /v1/post-purchase/cases/{case_id}', () => {
  it('shows the case to its buyer and the operator', async () => {
    expect(await c.expectStatus(c.as(buyer, 'GET', casePath(caseId)), 200)).toMatchObject({ case_id: caseId, status: 'open' });
    expect(await c.expectStatus(c.op('GET', casePath(caseId)), 200)).toMatchObject({ case_id: caseId, buyer_agent_id: buyer.agentId });
  });

  it('401 anonymous, 400 bad id, 403 another agent, 404 unknown case', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', casePath(caseId)), 401, 'unauthenticated');
    expectProblem(await c.as(buyer, 'GET', casePath('case id!')), 400, 'validation_failed');
    expectProblem(await c.as(stranger, 'GET', casePath(caseId)), 403, 'not_deal_buyer');
    expectProblem(await c.op('GET', casePath('case_nope')), 404, 'case_not_found');
  });
});

describe('POST /v1/post-purchase/cases/{case_id}', () => {
  it('takes the buyer’s evidence, the operator’s review and approval, and credits the buyer exactly the refund once', async () => {
    const added = await c.expectStatus(c.as(buyer, 'POST', casePath(caseId), { evidence_refs: ['photo:2'], note: 'the box too' }), 200);
    expect(added).toEqual({ case: expect.objectContaining({ evidence_refs: ['photo:1', 'photo:2'] }), refund_receipt: null });
    await c.expectStatus(c.op('POST', casePath(caseId), { status: 'under_review' }), 200);
    const before = await c.balance(buyer, 'USD');

    const approved = await c.expectStatus(c.op('POST', casePath(caseId), { status: 'approved', note: 'photos confirm it' }), 200);
    expect(approved.case).toMatchObject({ status: 'approved', refund_state: 'credited', refund_receipt_id: expect.any(String) });
    expect(approved.refund_receipt).toMatchObject({
      receipt_id: approved.case.refund_receipt_id,
      kind: 'purchase_refund',
      payer: 'merchant:sandbox-merchant.local',
      payee: buyer.agentId,
      amount: '20',
      currency: 'USD',
      refunds_receipt_id: settlementReceiptId,
      signature: expect.any(String),
    });
    // The same signed receipt as the ledger serves it.
    const stored = await c.expectStatus(c.as(buyer, 'GET', `/v1/receipts/${encodeURIComponent(approved.case.refund_receipt_id)}`), 200);
    expect(stored).toMatchObject({ receipt_id: approved.case.refund_receipt_id, kind: 'purchase_refund', signature: approved.refund_receipt.signature });
    const after = await c.balance(buyer, 'USD');
    expect(formatAmount(parseAmount(after.available) - parseAmount(before.available))).toBe('20');
    expect(after.held).toBe(before.held);
    // Nothing more is credited by a repeat.
    expectProblem(await c.op('POST', casePath(caseId), { status: 'approved' }), 409, 'invalid_state');
    expect(await c.balance(buyer, 'USD')).toEqual(after);
  });

  it('401 anonymous, 400 empty update, 403 buyer moving the status or a stranger, 409 a move out of the machine or late evidence', async () => {
    expectProblem(await http(stack.baseUrl, 'POST', casePath(caseId), { body: { status: 'closed' } }), 401, 'unauthenticated');
    expectProblem(await c.op('POST', casePath(caseId), {}), 400, 'validation_failed');
    expectProblem(await c.op('POST', casePath(caseId), { status: 'reopened' }), 400, 'validation_failed');
    expectProblem(await c.as(buyer, 'POST', casePath(caseId), { status: 'closed' }), 403, 'operator_required');
    expectProblem(await c.as(stranger, 'POST', casePath(caseId), { evidence_refs: ['x'] }), 403, 'not_deal_buyer');
    const wrong = await c.op('POST', casePath(caseId), { status: 'under_review' });
    expectProblem(wrong, 409, 'invalid_state');
    expect(wrong.body).toMatchObject({ current: 'approved', wanted: 'under_review' });
    expectProblem(await c.as(buyer, 'POST', casePath(caseId), { evidence_refs: ['late'] }), 409, 'invalid_state');
    expect((await c.expectStatus(c.op('POST', casePath(caseId), { status: 'closed' }), 200)).case.status).toBe('closed');
  });
});

describe('GET /v1/post-purchase/cases/{case_id}/events', () => {
  it('lists every move, the evidence and the credit in order, paginated', async () => {
    const all = await c.expectStatus(c.as(buyer, 'GET', casePath(caseId, '/events')), 200);
    expect(all.data.map((e: { seq: number; type: string; to_status: string | null }) => [e.seq, e.type, e.to_status])).toEqual([
      [1, 'opened', 'open'],
      [2, 'evidence_added', null],
      [3, 'status_changed', 'under_review'],
      [4, 'status_changed', 'approved'],
      [5, 'refund_credited', null],
      [6, 'status_changed', 'closed'],
    ]);
    expect(all.data[4]).toMatchObject({ actor: 'system:commerce', amount: '20', receipt_id: expect.any(String) });
    const first = await c.expectStatus(c.op('GET', casePath(caseId, '/events?limit=2')), 200);
    const next = await c.expectStatus(c.op('GET', casePath(caseId, `/events?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`)), 200);
    expect([...first.data, ...next.data].map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('401 anonymous, 400 bad limit, 403 another agent, 404 unknown case', async () => {
    expectProblem(await http(stack.baseUrl, 'GET', casePath(caseId, '/events')), 401, 'unauthenticated');
    expectProblem(await c.as(buyer, 'GET', casePath(caseId, '/events?limit=0')), 400, 'validation_failed');
    expectProblem(await c.as(stranger, 'GET', casePath(caseId, '/events')), 403, 'not_deal_buyer');
    expectProblem(await c.op('GET', casePath('case_nope', '/events')), 404, 'case_not_found');
  });
});
