import { errors } from '@exchange/platform';
import { expectProblem } from './harness';
import { anonymous, asOperator, buyer, C, h, other, signed, useCommerceHarness } from './commerce-setup';

// Spending mandates through the gateway (fake commerce): create (signer = acting agent), read,
// list with filters and the Actor, autonomy read/replace, validation, and commerce's codes.

useCommerceHarness();

const body = (over: Record<string, unknown> = {}) => ({
  signer_agent_id: buyer.agentId,
  agent_id: other.agentId,
  scope: { merchants: ['sandbox-merchant.local'], categories: ['coffee'], skus: [] },
  limits: { per_transaction: '100', total: '500', currency: 'USD' },
  expires_at: '2027-01-01T00:00:00.000Z',
  signature: 'c2ln',
  ...over,
});
const autonomy = { mode: 'step_up', step_up_threshold: { amount: '50', currency: 'USD' }, approval_for_new_merchants: true, daily_limit: '200' };

describe('POST /v1/mandates', () => {
  it('should create a mandate signed by the acting agent and answer its JSON', async () => {
    const res = await signed(buyer, 'POST', '/v1/mandates', body({ autonomy }), { 'idempotency-key': 'mdt-1' });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe('/v1/mandates/mdt_1');
    expect(h.commerce.lastCall('createMandate').request).toEqual({
      actor: { agentId: buyer.agentId, operator: false },
      signerAgentId: buyer.agentId,
      agentId: other.agentId,
      scopeMerchants: ['sandbox-merchant.local'],
      scopeCategories: ['coffee'],
      scopeSkus: [],
      perTransaction: '100',
      totalLimit: '500',
      currency: 'USD',
      expiresAt: new Date('2027-01-01T00:00:00.000Z'),
      signature: 'c2ln',
      autonomy: { mode: C.AutonomyMode.AUTONOMY_MODE_STEP_UP, stepUpThreshold: { amount: '50', currency: 'USD' }, approvalForNewMerchants: true, dailyLimit: '200' },
      idempotencyKey: 'mdt-1',
    });
    expect(res.json()).toEqual({
      mandate_id: 'mdt_1',
      signer_agent_id: buyer.agentId,
      agent_id: other.agentId,
      scope: { merchants: ['sandbox-merchant.local'], categories: ['coffee'], skus: [] },
      limits: { per_transaction: '100', total: '500', currency: 'USD' },
      expires_at: '2027-01-01T00:00:00.000Z',
      signature: 'c2ln',
      status: 'active',
      spent: '0',
      reserved: '0',
      autonomy,
      created_at: '2026-11-21T18:00:00.000Z',
      updated_at: '2026-11-21T18:00:00.000Z',
    });
  });

  it('should refuse a signer other than the acting agent', async () => {
    expectProblem(await signed(other, 'POST', '/v1/mandates', body()), 403, 'acting_agent_mismatch');
  });

  it.each([
    ['no scope', { scope: undefined }, 'validation_failed'],
    ['an unknown autonomy mode', { autonomy: { ...autonomy, mode: 'yolo' } }, 'validation_failed'],
    ['a currency that is not one', { limits: { per_transaction: '1', total: '2', currency: 'usd' } }, 'unsupported_currency'],
    ['expires_at that is not a date-time', { expires_at: 'tomorrow' }, 'validation_failed'],
    ['an unknown limits field', { limits: { per_transaction: '1', total: '2', currency: 'USD', daily: '1' } }, 'validation_failed'],
  ])('should answer 400 for %s', async (_name, over, code) => {
    expectProblem(await signed(buyer, 'POST', '/v1/mandates', body(over)), 400, code);
  });

  it.each([
    ['mandate_signature_invalid', 400, errors.invalidArgument('mandate_signature_invalid', 'does not verify')],
    ['invalid_amount', 400, errors.invalidArgument('invalid_amount', 'per_transaction')],
    ['agent_not_found', 404, errors.notFound('agent', 'x:agent:y')],
  ] as const)('should carry %s as %i', async (code, httpStatus, err) => {
    h.commerce.failNext('createMandate', err);
    expectProblem(await signed(buyer, 'POST', '/v1/mandates', body()), httpStatus, code);
  });
});

describe('GET /v1/mandates and /v1/mandates/{mandate_id}', () => {
  it('should list with filters, the Actor and the page', async () => {
    const res = await signed(buyer, 'GET', `/v1/mandates?signer_agent_id=${encodeURIComponent(buyer.agentId)}&status=paused&limit=2`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [{ mandate_id: 'mdt_1', status: 'active' }, { mandate_id: 'mdt_2', status: 'paused' }], next_cursor: null });
    expect(h.commerce.lastCall('listMandates').request).toEqual({
      actor: { agentId: buyer.agentId, operator: false },
      signerAgentId: buyer.agentId,
      status: C.MandateStatus.MANDATE_STATUS_PAUSED,
      page: { limit: 2, cursor: '' },
    });
    await asOperator('GET', '/v1/mandates');
    expect(h.commerce.lastCall<{ actor: unknown; status?: number }>('listMandates').request).toMatchObject({ actor: { agentId: '', operator: true } });
    expect(h.commerce.lastCall<{ status?: number }>('listMandates').request.status).toBeUndefined();
  });

  it('should refuse an unknown status filter and anonymous callers', async () => {
    expectProblem(await signed(buyer, 'GET', '/v1/mandates?status=deleted'), 400, 'validation_failed');
    expectProblem(await anonymous('GET', '/v1/mandates'), 401, 'unauthenticated');
  });

  it('should read one mandate, 404 mandate_not_found for an unknown one', async () => {
    expect((await signed(other, 'GET', '/v1/mandates/mdt_9')).json()).toMatchObject({ mandate_id: 'mdt_9' });
    expect(h.commerce.lastCall('getMandate').request).toEqual({ actor: { agentId: other.agentId, operator: false }, mandateId: 'mdt_9' });
    expectProblem(await signed(buyer, 'GET', '/v1/mandates/mdt_unknown'), 404, 'mandate_not_found');
  });
});

describe('GET/PUT /v1/mandates/{mandate_id}/autonomy', () => {
  it('should read the autonomy settings (no daily limit → null)', async () => {
    const res = await signed(buyer, 'GET', '/v1/mandates/mdt_1/autonomy');
    expect(res.json()).toEqual({
      mandate_id: 'mdt_1',
      autonomy: { mode: 'step_up', step_up_threshold: { amount: '50', currency: 'USD' }, approval_for_new_merchants: false, daily_limit: null },
    });
  });

  it('should replace them with the whole object', async () => {
    const next = { mode: 'manual', step_up_threshold: { amount: '0.5', currency: 'USD' }, approval_for_new_merchants: false };
    const res = await signed(buyer, 'PUT', '/v1/mandates/mdt_1/autonomy', next);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ mandate_id: 'mdt_1', autonomy: { ...next, daily_limit: null } });
    expect(h.commerce.lastCall('putAutonomy').request).toEqual({
      actor: { agentId: buyer.agentId, operator: false },
      mandateId: 'mdt_1',
      autonomy: { mode: C.AutonomyMode.AUTONOMY_MODE_MANUAL, stepUpThreshold: { amount: '0.5', currency: 'USD' }, approvalForNewMerchants: false },
    });
  });

  it('should refuse a partial object and carry not_mandate_signer', async () => {
    expectProblem(await signed(buyer, 'PUT', '/v1/mandates/mdt_1/autonomy', { mode: 'manual' }), 400, 'validation_failed');
    h.commerce.failNext('putAutonomy', errors.permissionDenied('not_mandate_signer', 'only the signer'));
    expectProblem(await signed(other, 'PUT', '/v1/mandates/mdt_1/autonomy', autonomy), 403, 'not_mandate_signer');
  });
});

describe('POST /v1/mandates/{mandate_id}/status', () => {
  it('should pass the status and the Actor to commerce and answer the mandate', async () => {
    const res = await signed(buyer, 'POST', '/v1/mandates/mdt_1/status', { status: 'paused' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ mandate_id: 'mdt_1', status: 'paused' });
    expect(h.commerce.lastCall('setMandateStatus').request).toEqual({
      actor: { agentId: buyer.agentId, operator: false },
      mandateId: 'mdt_1',
      status: C.MandateStatus.MANDATE_STATUS_PAUSED,
    });
  });

  it('should refuse a status that cannot be set, and carry commerce refusals', async () => {
    expectProblem(await signed(buyer, 'POST', '/v1/mandates/mdt_1/status', { status: 'expired' }), 400, 'validation_failed');
    expectProblem(await anonymous('POST', '/v1/mandates/mdt_1/status', { status: 'revoked' }), 401, 'unauthenticated');
    h.commerce.failNext('setMandateStatus', errors.invalidState('mandate', 'revoked', 'active'));
    expectProblem(await signed(buyer, 'POST', '/v1/mandates/mdt_1/status', { status: 'active' }), 409, 'invalid_state');
    h.commerce.failNext('setMandateStatus', errors.permissionDenied('not_mandate_signer', 'only the signer'));
    expectProblem(await asOperator('POST', '/v1/mandates/mdt_1/status', { status: 'active' }), 403, 'not_mandate_signer');
  });
});
