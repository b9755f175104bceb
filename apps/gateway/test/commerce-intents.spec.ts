import { errors } from '@exchange/platform';
import { expectProblem } from './harness';
import { anonymous, asOperator, buyer, h, other, signed, useCommerceHarness } from './commerce-setup';

// Commerce intents and purchase feedback through the gateway (fake commerce): what the gateway
// sends (the Actor, defaults), the REST answer, its own 400s and 401, and commerce's codes carried.

useCommerceHarness();

const intentBody = (over: Record<string, unknown> = {}) => ({
  description: 'Two bouquets of red roses for the office',
  merchants: ['sandbox-merchant.local'],
  skus: ['bouquet_roses'],
  budget: { amount: '100', currency: 'USD' },
  requires_refundability: true,
  expires_at: '2026-12-01T00:00:00.000Z',
  ...over,
});

describe('POST /v1/commerce/intents/create', () => {
  it('should create the intent for the acting agent and answer 201 with its JSON', async () => {
    const res = await signed(buyer, 'POST', '/v1/commerce/intents/create', intentBody(), { 'idempotency-key': 'int-1' });
    expect(res.statusCode).toBe(201);
    expect(h.commerce.lastCall('createIntent').request).toEqual({
      actor: { agentId: buyer.agentId, operator: false },
      agentId: buyer.agentId,
      description: 'Two bouquets of red roses for the office',
      merchants: ['sandbox-merchant.local'],
      skus: ['bouquet_roses'],
      budget: { amount: '100', currency: 'USD' },
      requiresRefundability: true,
      expiresAt: new Date('2026-12-01T00:00:00.000Z'),
      idempotencyKey: 'int-1',
    });
    expect(res.json()).toEqual({
      intent_id: 'int_1',
      agent_id: buyer.agentId,
      description: 'Two bouquets of red roses for the office',
      merchants: ['sandbox-merchant.local'],
      skus: ['bouquet_roses'],
      budget: { amount: '100', currency: 'USD' },
      requires_refundability: true,
      expires_at: '2026-12-01T00:00:00.000Z',
      created_at: '2026-11-21T18:00:00.000Z',
    });
  });

  it('should default merchants, skus and requires_refundability, and mark a replay', async () => {
    const res = await signed(buyer, 'POST', '/v1/commerce/intents/create', intentBody({ merchants: undefined, skus: undefined, requires_refundability: undefined, idempotency_key: 'seen' }));
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(h.commerce.lastCall('createIntent').request).toMatchObject({ merchants: [], skus: [], requiresRefundability: false, idempotencyKey: 'seen' });
  });

  it('should let the operator create for a named agent, and need agent_id from it', async () => {
    expect((await asOperator('POST', '/v1/commerce/intents/create', intentBody({ agent_id: other.agentId }))).statusCode).toBe(201);
    expect(h.commerce.lastCall('createIntent').request).toMatchObject({ actor: { agentId: '', operator: true }, agentId: other.agentId });
    expectProblem(await asOperator('POST', '/v1/commerce/intents/create', intentBody()), 400, 'validation_failed');
  });

  it('should refuse an agent_id other than the acting agent, and anonymous callers', async () => {
    expectProblem(await signed(buyer, 'POST', '/v1/commerce/intents/create', intentBody({ agent_id: other.agentId })), 403, 'acting_agent_mismatch');
    expectProblem(await anonymous('POST', '/v1/commerce/intents/create', intentBody()), 401, 'unauthenticated');
  });

  it.each([
    ['no description', { description: undefined }],
    ['a description of 2001 characters', { description: 'x'.repeat(2001) }],
    ['no budget', { budget: undefined }],
    ['expires_at that is not a date-time', { expires_at: 'next week' }],
    ['an unknown field', { category: 'flowers' }],
  ])('should answer 400 validation_failed for %s', async (_name, over) => {
    expectProblem(await signed(buyer, 'POST', '/v1/commerce/intents/create', intentBody(over)), 400, 'validation_failed');
  });

  it.each([
    ['invalid_amount', 400, errors.invalidArgument('invalid_amount', 'budget')],
    ['agent_not_found', 404, errors.notFound('agent', 'x:agent:y')],
    ['idempotency_key_reused', 422, errors.invalidArgument('idempotency_key_reused', 'another body')],
  ] as const)('should carry %s as %i', async (code, httpStatus, err) => {
    h.commerce.failNext('createIntent', err);
    expectProblem(await signed(buyer, 'POST', '/v1/commerce/intents/create', intentBody()), httpStatus, code);
  });
});

describe('POST /v1/commerce/feedback/record', () => {
  it("should record the buyer's feedback and answer 201 with its JSON", async () => {
    const res = await signed(buyer, 'POST', '/v1/commerce/feedback/record', { deal_id: 'deal_1', rating: 5, comment: 'On time' });
    expect(res.statusCode).toBe(201);
    expect(h.commerce.lastCall('recordFeedback').request).toEqual({ actor: { agentId: buyer.agentId, operator: false }, dealId: 'deal_1', rating: 5, comment: 'On time' });
    expect(res.json()).toEqual({
      feedback_id: 'fbk_1',
      deal_id: 'deal_1',
      buyer_agent_id: buyer.agentId,
      merchant_domain: 'sandbox-merchant.local',
      rating: 5,
      comment: 'On time',
      created_at: '2026-11-21T18:00:00.000Z',
    });
  });

  it('should send an absent comment as empty', async () => {
    await signed(buyer, 'POST', '/v1/commerce/feedback/record', { deal_id: 'deal_1', rating: 3 });
    expect(h.commerce.lastCall('recordFeedback').request).toMatchObject({ rating: 3, comment: '' });
  });

  it.each([
    ['rating 0', { deal_id: 'deal_1', rating: 0 }],
    ['rating 6', { deal_id: 'deal_1', rating: 6 }],
    ['rating 4.5', { deal_id: 'deal_1', rating: 4.5 }],
    ['no deal_id', { rating: 4 }],
    ['a comment of 2001 characters', { deal_id: 'deal_1', rating: 4, comment: 'x'.repeat(2001) }],
  ])('should answer 400 validation_failed for %s', async (_name, payload) => {
    expectProblem(await signed(buyer, 'POST', '/v1/commerce/feedback/record', payload), 400, 'validation_failed');
  });

  it('should refuse anonymous callers', async () => {
    expectProblem(await anonymous('POST', '/v1/commerce/feedback/record', { deal_id: 'deal_1', rating: 4 }), 401, 'unauthenticated');
  });

  it.each([
    ['not_deal_buyer', 403, errors.permissionDenied('not_deal_buyer', 'only the buyer')],
    ['purchase_not_found', 404, errors.notFound('purchase', 'deal_x')],
    ['feedback_exists', 409, errors.alreadyExists('feedback_exists', 'once per deal')],
  ] as const)('should carry %s as %i', async (code, httpStatus, err) => {
    h.commerce.failNext('recordFeedback', err);
    expectProblem(await signed(other, 'POST', '/v1/commerce/feedback/record', { deal_id: 'deal_1', rating: 4 }), httpStatus, code);
  });
});
