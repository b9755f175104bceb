import { ISO, MarketHttp, expectProblem } from './market-http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';

// Governance through the gateway (operator): buyer alias updates and resale lineage reviews.
// A resale (POST /v1/contracts with resale_of) waits for the operator's review before any award;
// a rejection cancels it. One describe per spec endpoint (tools/spec-coverage).

let stack: Stack;
let m: MarketHttp;
const UNKNOWN_CONTRACT = 'ctr_00000000-0000-7000-8000-000000000000';
const UNKNOWN_REF = 'rld_00000000-0000-7000-8000-000000000000';
const ALIAS = /^anon:[a-z2-7]{12}$/;
const REVIEWS = '/v1/contracts/resale-lineage/review-decisions';

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

/** An awarded contract and a resale of it by its seller (open, review pending). */
async function resale(): Promise<{ parent: any; buyer: RawAgent; seller: RawAgent; contract: any; ref: string }> {
  const parent = await m.awarded();
  await m.fund(parent.seller, '150');
  const contract = await m.openContract(parent.seller, { resale_of: parent.contractId });
  return { parent, buyer: parent.buyer, seller: parent.seller, contract, ref: contract.resale_review.decision_ref };
}

const decide = (ref: string, body: Record<string, unknown>) => m.op('POST', `${REVIEWS}/${ref}`, body);

describe('POST /v1/contracts/{contract_id}/buyer-alias', () => {
  it('rotates a private buyer alias (new alias, buyer still hidden) and makes the buyer visible with buyer_private false', async () => {
    const buyer = await m.newAgent('gbuyer');
    const stranger = await m.newAgent('gstranger');
    const created = await m.openContract(buyer, { buyer_private: true });
    expect(created.buyer_alias).toMatch(ALIAS);

    const rotated = await m.expectStatus(m.op('POST', `/v1/contracts/${created.contract_id}/buyer-alias`, { reason: 'alias was linked to the buyer' }), 200);
    expect(rotated).toMatchObject({ contract_id: created.contract_id, buyer_private: true, buyer_id: buyer.agentId });
    expect(rotated.buyer_alias).toMatch(ALIAS);
    expect(rotated.buyer_alias).not.toBe(created.buyer_alias);
    const seen = await m.expectStatus(m.as(stranger, 'GET', `/v1/contracts/${created.contract_id}`), 200);
    expect(seen.buyer_alias).toBe(rotated.buyer_alias);
    expect(seen.buyer_id === null || seen.buyer_id === '' || seen.buyer_id === undefined).toBe(true);

    const visible = await m.expectStatus(
      m.op('POST', `/v1/contracts/${created.contract_id}/buyer-alias`, { reason: 'buyer asked to be public', buyer_private: false }),
      200,
    );
    expect(visible).toMatchObject({ buyer_private: false, buyer_alias: null, buyer_id: buyer.agentId });
    expect(await m.expectStatus(m.as(stranger, 'GET', `/v1/contracts/${created.contract_id}`), 200)).toMatchObject({ buyer_id: buyer.agentId });
  });

  it('is operator only (403), needs a reason (400), refuses unknown fields (400) and unknown contracts (404)', async () => {
    const buyer = await m.newAgent('gbuyer');
    const created = await m.openContract(buyer, { buyer_private: true });
    const path = `/v1/contracts/${created.contract_id}/buyer-alias`;
    expectProblem(await m.as(buyer, 'POST', path, { reason: 'mine' }), 403, 'operator_token_required');
    expectProblem(await m.op('POST', path, {}), 400, 'validation_failed');
    expectProblem(await m.op('POST', path, { reason: '' }), 400, 'validation_failed');
    expectProblem(await m.op('POST', path, { reason: 'x', color: 'blue' }), 400, 'validation_failed');
    expectProblem(await m.op('POST', `/v1/contracts/${UNKNOWN_CONTRACT}/buyer-alias`, { reason: 'x' }), 404, 'contract_not_found');
    expect((await m.contract(created.contract_id)).buyer_alias).toBe(created.buyer_alias);
  });
});

describe('GET /v1/contracts/resale-lineage/review-decisions', () => {
  it('lists reviews newest first for the operator, filtered by status and contract_id', async () => {
    const a = await resale();
    const list = await m.expectStatus(m.op('GET', `${REVIEWS}?status=pending&limit=200`), 200);
    expect(list.data.map((r: any) => r.decision_ref)).toContain(a.ref);
    expect(list.data.every((r: any) => r.status === 'pending')).toBe(true);
    const one = await m.expectStatus(m.op('GET', `${REVIEWS}?contract_id=${a.contract.contract_id}`), 200);
    expect(one).toEqual({ data: [a.contract.resale_review], next_cursor: null });
    expect((await m.expectStatus(m.op('GET', `${REVIEWS}?status=approved&contract_id=${a.contract.contract_id}`), 200)).data).toEqual([]);
  });

  it('is operator only and validates the status filter', async () => {
    const agent = await m.newAgent('gagent');
    expectProblem(await m.as(agent, 'GET', REVIEWS), 403, 'operator_token_required');
    expectProblem(await m.op('GET', `${REVIEWS}?status=maybe`), 400, 'validation_failed');
  });
});

describe('GET /v1/contracts/resale-lineage/review-decisions/{decision_ref}', () => {
  it('reads one review', async () => {
    const a = await resale();
    const review = await m.expectStatus(m.op('GET', `${REVIEWS}/${a.ref}`), 200);
    expect(review).toEqual(a.contract.resale_review);
  });

  it('answers 404 resale_review_not_found for an unknown ref', async () => {
    expectProblem(await m.op('GET', `${REVIEWS}/${UNKNOWN_REF}`), 404, 'resale_review_not_found');
  });
});

describe('POST /v1/contracts/resale-lineage/review-decisions/{decision_ref}', () => {
  it('creates a resale with a pending review that blocks awards until approved', async () => {
    const a = await resale();
    expect(a.contract).toMatchObject({ resale_of: a.parent.contractId, buyer_id: a.seller.agentId, status: 'open' });
    expect(a.contract.resale_review).toMatchObject({
      contract_id: a.contract.contract_id,
      resale_of: a.parent.contractId,
      root_contract_id: a.parent.contractId,
      depth: 1,
      lineage: [a.parent.contractId],
      status: 'pending',
      decided_by: null,
      reason: null,
      decided_at: null,
    });
    expect(a.ref).toMatch(/^rld_[0-9a-f-]{36}$/);
    expect(a.contract.resale_review.created_at).toMatch(ISO);

    expectProblem(await m.offer(a.buyer, a.contract.contract_id), 409, 'resale_cycle');
    const sub = await m.newAgent('gsub');
    const offer = await m.submitOffer(sub, a.contract.contract_id);
    expectProblem(await m.award(a.contract.contract_id, offer.offer_id), 409, 'resale_review_pending');

    const approved = await m.expectStatus(decide(a.ref, { decision: 'approve', reason: 'genuine subcontract' }), 200);
    expect(approved).toMatchObject({ decision_ref: a.ref, status: 'approved', decided_by: expect.stringMatching(/^operator:/), reason: 'genuine subcontract' });
    expect(approved.decided_at).toMatch(ISO);
    await m.expectStatus(m.award(a.contract.contract_id, offer.offer_id), 200);
    expect((await m.contract(a.contract.contract_id)).resale_review.status).toBe('approved');
    expectProblem(await decide(a.ref, { decision: 'reject', reason: 'too late' }), 409, 'invalid_state');
  });

  it('rejects a lineage: the resale contract is cancelled with the reason', async () => {
    const a = await resale();
    const rejected = await m.expectStatus(decide(a.ref, { decision: 'reject', reason: 'wash trading' }), 200);
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'wash trading' });
    expect(await m.contract(a.contract.contract_id)).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'resale lineage rejected: wash trading',
      escrow_status: 'none',
    });
    expectProblem(await decide(a.ref, { decision: 'approve', reason: 'changed my mind' }), 409, 'invalid_state');
  });

  it('refuses resales by non-sellers (403 resale_not_party), bad decisions (400), agents (403) and unknown refs (404)', async () => {
    const a = await resale();
    const stranger = await m.newAgent('gstranger');
    expectProblem(await m.createContract(stranger, { resale_of: a.parent.contractId }), 403, 'resale_not_party');
    expectProblem(await decide(a.ref, { decision: 'maybe', reason: 'x' }), 400, 'validation_failed');
    expectProblem(await decide(a.ref, { decision: 'approve' }), 400, 'validation_failed');
    expectProblem(await m.as(a.seller, 'POST', `${REVIEWS}/${a.ref}`, { decision: 'approve', reason: 'mine' }), 403, 'operator_token_required');
    expectProblem(await decide(UNKNOWN_REF, { decision: 'approve', reason: 'x' }), 404, 'resale_review_not_found');
    expect((await m.expectStatus(m.op('GET', `${REVIEWS}/${a.ref}`), 200)).status).toBe('pending');
  });
});
