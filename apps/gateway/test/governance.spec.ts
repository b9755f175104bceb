import { marketV1 } from '@exchange/proto';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// Operator decisions through the gateway (fake market): buyer alias updates and resale lineage
// reviews — operator-only auth, validation, mapping and the market's codes carried through.

const M = marketV1;
let h: Harness;
let agent: TestAgent;
const REVIEWS = '/v1/contracts/resale-lineage/review-decisions';

beforeAll(async () => {
  h = await startHarness();
  agent = new TestAgent(uniqueAgentId('gov'));
  await registerAgent(h.app, agent);
});

afterAll(async () => {
  await h.close();
});

const asOperator = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  h.app.inject({ method, url, headers: operator(), ...(payload === undefined ? {} : { payload: payload as object }) });
function signed(method: 'GET' | 'POST', url: string, body?: unknown) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return h.app.inject({
    method,
    url,
    headers: { ...agent.signedHeaders(method, url, text), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: text }),
  });
}
async function newContract() {
  const res = await asOperator('POST', '/v1/contracts', {
    buyer_id: agent.agentId,
    title: 't',
    budget: { amount: '1', currency: 'CREDIT' },
    deadline: '2030-01-01T00:00:00.000Z',
    acceptance_criteria: 'c',
    buyer_private: true,
  });
  return res.json().contract_id as string;
}

describe('POST /v1/contracts/{contract_id}/buyer-alias', () => {
  it('should rotate the alias by default and answer the contract', async () => {
    const id = await newContract();
    const res = await asOperator('POST', `/v1/contracts/${id}/buyer-alias`, { reason: 'alias leaked' });
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('updateBuyerAlias').request).toEqual({ contractId: id, reason: 'alias leaked', idempotencyKey: '' });
    expect(res.json()).toMatchObject({ contract_id: id, buyer_private: true, buyer_alias: expect.stringMatching(/^anon:/) });
  });

  it('should make the buyer visible with buyer_private false', async () => {
    const id = await newContract();
    const res = await asOperator('POST', `/v1/contracts/${id}/buyer-alias`, { reason: 'buyer asked', buyer_private: false });
    expect(res.json()).toMatchObject({ buyer_private: false, buyer_alias: null, buyer_id: agent.agentId });
  });

  it('should be operator only and need a reason', async () => {
    const id = await newContract();
    expectProblem(await signed('POST', `/v1/contracts/${id}/buyer-alias`, { reason: 'x' }), 403, 'operator_token_required');
    expectProblem(await asOperator('POST', `/v1/contracts/${id}/buyer-alias`, {}), 400, 'validation_failed');
    expectProblem(await asOperator('POST', `/v1/contracts/${id}/buyer-alias`, { reason: 'x', alias: 'anon:mine' }), 400, 'validation_failed');
  });

  it('should carry 404 contract_not_found', async () => {
    expectProblem(await asOperator('POST', '/v1/contracts/ctr_nope/buyer-alias', { reason: 'x' }), 404, 'contract_not_found');
  });
});

describe('GET /v1/contracts/resale-lineage/review-decisions', () => {
  it('should pass the status and contract filters and answer reviews', async () => {
    const res = await asOperator('GET', `${REVIEWS}?status=pending&contract_id=ctr_fake-resale`);
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listResaleReviews').request).toEqual({
      page: { limit: 0, cursor: '' },
      status: M.ResaleReviewStatus.RESALE_REVIEW_STATUS_PENDING,
      contractId: 'ctr_fake-resale',
    });
    expect(res.json().data[0]).toMatchObject({ decision_ref: 'rld_fake-pending', status: 'pending', lineage: ['ctr_fake-parent'], decided_by: null });
  });

  it('should answer 400 for an unknown status and 403 to an agent', async () => {
    expectProblem(await asOperator('GET', `${REVIEWS}?status=maybe`), 400, 'validation_failed');
    expectProblem(await signed('GET', REVIEWS), 403, 'operator_token_required');
  });
});

describe('GET /v1/contracts/resale-lineage/review-decisions/{decision_ref}', () => {
  it('should read a review and carry 404 resale_review_not_found', async () => {
    expect((await asOperator('GET', `${REVIEWS}/rld_fake-pending`)).json().contract_id).toBe('ctr_fake-resale');
    expectProblem(await asOperator('GET', `${REVIEWS}/rld_nope`), 404, 'resale_review_not_found');
  });
});

describe('POST /v1/contracts/resale-lineage/review-decisions/{decision_ref}', () => {
  it('should decide once (200 with the decided review) and answer 409 invalid_state the second time', async () => {
    const res = await asOperator('POST', `${REVIEWS}/rld_fake-pending`, { decision: 'approve', reason: 'lineage ok' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'approved', decided_by: 'operator:default', reason: 'lineage ok', decided_at: expect.any(String) });
    expectProblem(await asOperator('POST', `${REVIEWS}/rld_fake-pending`, { decision: 'reject', reason: 'changed my mind' }), 409, 'invalid_state');
  });

  it('should answer 400 for an unknown decision and a missing reason', async () => {
    expectProblem(await asOperator('POST', `${REVIEWS}/rld_fake-pending`, { decision: 'maybe', reason: 'x' }), 400, 'validation_failed');
    expectProblem(await asOperator('POST', `${REVIEWS}/rld_fake-pending`, { decision: 'approve' }), 400, 'validation_failed');
  });
});
