import { expectProblem } from './harness';
import { anonymous, asOperator, buyer, C, h, signed, useCommerceHarness } from './commerce-setup';

// Post-purchase cases through the gateway (fake commerce): what is sent (Actor, enums, evidence,
// idempotency key), the JSON shapes (case, update with the refund receipt object, events), the
// auth modes, body validation, and commerce's codes coming back as problems.

useCommerceHarness();

const T0 = '2026-11-21T18:00:00.000Z';
const body = (over: Record<string, unknown> = {}) => ({ deal_id: 'deal_1', type: 'return', reason: 'wrong size', amount: '10.5', evidence_refs: ['photo-1'], ...over });

describe('POST /v1/post-purchase/cases', () => {
  it('should open a case for the acting agent and answer 201 with its JSON and location', async () => {
    const res = await signed(buyer, 'POST', '/v1/post-purchase/cases', body(), { 'idempotency-key': 'case-1' });
    expect(res.statusCode).toBe(201);
    expect(h.commerce.lastCall('createCase').request).toEqual({
      actor: { agentId: buyer.agentId, operator: false },
      dealId: 'deal_1',
      type: C.CaseType.CASE_TYPE_RETURN,
      reason: 'wrong size',
      amount: '10.5',
      evidenceRefs: ['photo-1'],
      idempotencyKey: 'case-1',
    });
    expect(res.headers.location).toBe('/v1/post-purchase/cases/case_1');
    expect(res.json()).toEqual({
      case_id: 'case_1',
      deal_id: 'deal_1',
      buyer_agent_id: buyer.agentId,
      merchant_domain: 'sandbox-merchant.local',
      type: 'return',
      reason: 'wrong size',
      amount: '10.5',
      currency: 'USD',
      status: 'open',
      evidence_refs: ['photo-1'],
      refund_state: 'none',
      refund_receipt_id: null,
      created_at: T0,
      updated_at: T0,
    });
  });

  it('should leave amount and evidence to their defaults and mark a replay', async () => {
    const res = await signed(buyer, 'POST', '/v1/post-purchase/cases', { deal_id: 'deal_1', type: 'chargeback', reason: 'never arrived' }, { 'idempotency-key': 'replayed-key' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(h.commerce.lastCall<{ amount?: string; evidenceRefs: string[] }>('createCase').request).toMatchObject({ evidenceRefs: [] });
    expect(h.commerce.lastCall<{ amount?: string }>('createCase').request.amount).toBeUndefined();
  });

  it('should refuse anonymous callers, bad bodies and an unknown deal', async () => {
    expectProblem(await anonymous('POST', '/v1/post-purchase/cases', body()), 401, 'unauthenticated');
    expectProblem(await signed(buyer, 'POST', '/v1/post-purchase/cases', body({ type: 'exchange' })), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'POST', '/v1/post-purchase/cases', body({ reason: '' })), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'POST', '/v1/post-purchase/cases', body({ extra: 1 })), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'POST', '/v1/post-purchase/cases', body({ evidence_refs: Array(21).fill('x') })), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'POST', '/v1/post-purchase/cases', body({ deal_id: 'deal_unknown' })), 404, 'purchase_not_found');
  });
});

describe('GET /v1/post-purchase/cases/{case_id}', () => {
  it('should answer the case to a party and pass commerce’s refusals through', async () => {
    const res = await asOperator('GET', '/v1/post-purchase/cases/case_9');
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('getCase').request).toEqual({ actor: { agentId: '', operator: true }, caseId: 'case_9' });
    expect(res.json()).toMatchObject({ case_id: 'case_9', status: 'open', type: 'refund' });
    expectProblem(await signed(buyer, 'GET', '/v1/post-purchase/cases/case_unknown'), 404, 'case_not_found');
    expectProblem(await signed(buyer, 'GET', '/v1/post-purchase/cases/case_foreign'), 403, 'not_deal_buyer');
    expectProblem(await anonymous('GET', '/v1/post-purchase/cases/case_9'), 401, 'unauthenticated');
  });
});

describe('POST /v1/post-purchase/cases/{case_id}', () => {
  it('should send the operator’s approval and answer the case with the refund receipt as an object', async () => {
    const res = await asOperator('POST', '/v1/post-purchase/cases/case_1', { status: 'approved', note: 'photos confirm it' });
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('updateCase').request).toEqual({
      actor: { agentId: '', operator: true },
      caseId: 'case_1',
      status: C.CaseStatus.CASE_STATUS_APPROVED,
      addEvidenceRefs: [],
      note: 'photos confirm it',
    });
    expect(res.json()).toMatchObject({
      case: { case_id: 'case_1', status: 'approved', refund_state: 'credited', refund_receipt_id: 'rcpt_r1' },
      refund_receipt: { receipt_id: 'rcpt_r1', kind: 'purchase_refund', amount: '34.2' },
    });
  });

  it('should let the buyer add evidence (no receipt) but not move the status', async () => {
    const res = await signed(buyer, 'POST', '/v1/post-purchase/cases/case_1', { evidence_refs: ['photo-2'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ case: { evidence_refs: ['photo-2'], status: 'open' }, refund_receipt: null });
    expectProblem(await signed(buyer, 'POST', '/v1/post-purchase/cases/case_1', { status: 'approved' }), 403, 'operator_required');
  });

  it('should refuse a move out of the machine, an unknown status, a stranger and anonymous callers', async () => {
    const res = await asOperator('POST', '/v1/post-purchase/cases/case_1', { status: 'closed' });
    expectProblem(res, 409, 'invalid_state');
    expect(res.json()).toMatchObject({ current: 'open', wanted: 'closed' });
    expectProblem(await asOperator('POST', '/v1/post-purchase/cases/case_1', { status: 'open' }), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'POST', '/v1/post-purchase/cases/case_foreign', { evidence_refs: ['x'] }), 403, 'not_deal_buyer');
    expectProblem(await anonymous('POST', '/v1/post-purchase/cases/case_1', { evidence_refs: ['x'] }), 401, 'unauthenticated');
  });
});

describe('GET /v1/post-purchase/cases/{case_id}/events', () => {
  it('should page the events oldest first with nulls for what an event does not carry', async () => {
    const res = await signed(buyer, 'GET', '/v1/post-purchase/cases/case_1/events?limit=1');
    expect(res.statusCode).toBe(200);
    expect(h.commerce.lastCall('listCaseEvents').request).toEqual({ actor: { agentId: buyer.agentId, operator: false }, caseId: 'case_1', page: { limit: 1, cursor: '' } });
    expect(res.json()).toEqual({
      data: [
        { event_id: 'evt_1', case_id: 'case_1', seq: 1, type: 'opened', from_status: null, to_status: 'open', actor: 'acme:agent:buyer-1', note: null, evidence_refs: ['photo-1'], amount: '34.2', receipt_id: null, at: T0 },
        { event_id: 'evt_2', case_id: 'case_1', seq: 2, type: 'refund_credited', from_status: null, to_status: null, actor: 'system:commerce', note: null, evidence_refs: [], amount: '34.2', receipt_id: 'rcpt_r1', at: T0 },
      ],
      next_cursor: 'cur_2',
    });
  });

  it('should refuse a bad limit, a stranger and anonymous callers', async () => {
    expectProblem(await signed(buyer, 'GET', '/v1/post-purchase/cases/case_1/events?limit=0'), 400, 'validation_failed');
    expectProblem(await signed(buyer, 'GET', '/v1/post-purchase/cases/case_foreign/events'), 403, 'not_deal_buyer');
    expectProblem(await anonymous('GET', '/v1/post-purchase/cases/case_1/events'), 401, 'unauthenticated');
  });
});
