import { errors } from '@exchange/platform';
import { expectProblem, registerAgent, TestAgent, uniqueAgentId } from './harness';
import { asOperator, buyer, h, ISO, M, newContract, seller, SHA, signed, useMarketHarness } from './market-setup';

// The Results, Verification (verifiers, verifier listings, telemetry) and Disputes areas through
// app.inject(), as market-contracts.spec.ts.

useMarketHarness();

describe('POST /v1/contracts/{contract_id}/results', () => {
  it('should submit a result (201) with any JSON payload, round-tripped', async () => {
    const c = await newContract();
    const payload = { summaries: [{ id: 1, text: 'ok' }], n: 1.5, flag: null };
    const res = await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'done', artifact_refs: [SHA], payload });
    expect(res.statusCode).toBe(201);
    expect(h.market.lastCall('submitResult').request).toEqual({
      contractId: c.contract_id,
      sellerId: '',
      summary: 'done',
      artifactRefs: [SHA],
      payloadJson: JSON.stringify(payload),
      idempotencyKey: '',
    });
    expect(res.json()).toEqual({
      result_id: expect.stringMatching(/^res_/),
      contract_id: c.contract_id,
      seller_id: seller.agentId,
      summary: 'done',
      artifact_refs: [SHA],
      payload,
      status: 'submitted',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
  });

  it('should answer payload null when none was sent, and carry 403 not_awarded_seller', async () => {
    const c = await newContract();
    const res = await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'done', payload: 'a string' });
    expect(res.json().payload).toBe('a string');
    const bare = await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'again' });
    expect(bare.json()).toMatchObject({ payload: null, artifact_refs: [] });
    h.market.failNext('submitResult', errors.permissionDenied('not_awarded_seller', 'only the awarded seller'));
    expectProblem(await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'x' }), 403, 'not_awarded_seller');
  });
});

describe('GET /v1/contracts/{contract_id}/results', () => {
  it('should list with filters and 404 for an unknown contract', async () => {
    const c = await newContract();
    await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'r' });
    const res = await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}/results?status=submitted`);
    expect(res.json()).toEqual({ data: [expect.objectContaining({ summary: 'r', status: 'submitted' })], next_cursor: null });
    expect(h.market.lastCall('listResults').request).toEqual({ contractId: c.contract_id, page: { limit: 0, cursor: '' }, status: M.ResultStatus.RESULT_STATUS_SUBMITTED });
    expectProblem(await signed(buyer, 'GET', '/v1/contracts/ctr_missing/results'), 404, 'contract_not_found');
  });
});

describe('GET /v1/results/{result_id}', () => {
  it('should read a result and 404 result_not_found', async () => {
    const c = await newContract();
    const r = (await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/results`, { summary: 'r', payload: [1, 2] })).json();
    expect((await signed(buyer, 'GET', `/v1/results/${r.result_id}`)).json()).toEqual(r);
    expectProblem(await signed(buyer, 'GET', '/v1/results/res_missing'), 404, 'result_not_found');
  });
});

describe('POST /v1/contracts/{contract_id}/verify', () => {
  it('should pass the report through (201) with checks exactly as sent and null details in the answer', async () => {
    const c = await newContract();
    const body = {
      result_id: 'res_1',
      verdict: 'pass',
      score: 0.92,
      checks: [{ name: 'format', ok: true }, { name: 'coverage', ok: false, detail: '39/40' }],
      signature: 'c2ln',
    };
    const res = await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/verify`, body);
    expect(res.statusCode).toBe(201);
    expect(h.market.lastCall('submitVerification').request).toEqual({
      contractId: c.contract_id,
      verifierId: '',
      resultId: 'res_1',
      verdict: M.Verdict.VERDICT_PASS,
      score: 0.92,
      checks: [{ name: 'format', ok: true }, { name: 'coverage', ok: false, detail: '39/40' }],
      signature: 'c2ln',
      idempotencyKey: '',
    });
    expect(res.json()).toEqual({
      report_id: expect.stringMatching(/^rpt_/),
      contract_id: c.contract_id,
      result_id: 'res_1',
      verifier_id: buyer.agentId,
      verdict: 'pass',
      score: 0.92,
      // As signed (issue 13): no `detail` key where none was sent (was `detail: null`).
      checks: [
        { name: 'format', ok: true },
        { name: 'coverage', ok: false, detail: '39/40' },
      ],
      signature: 'c2ln',
      created_at: expect.stringMatching(ISO),
    });
  });

  it('should carry 400 report_signature_invalid and refuse a verdict outside pass|fail', async () => {
    h.market.failNext('submitVerification', errors.invalidArgument('report_signature_invalid', 'signature does not verify'));
    const body = { result_id: 'res_1', verdict: 'fail', score: 0.1, signature: 'c2ln' };
    expectProblem(await signed(buyer, 'POST', '/v1/contracts/ctr_x/verify', body), 400, 'report_signature_invalid');
    expectProblem(await signed(buyer, 'POST', '/v1/contracts/ctr_x/verify', { ...body, verdict: 'maybe' }), 400, 'validation_failed');
  });
});

describe('GET /v1/contracts/{contract_id}/verification', () => {
  it('should answer the latest report, and 404 verification_not_found before any', async () => {
    const c = await newContract();
    expectProblem(await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}/verification`), 404, 'verification_not_found');
    const report = (await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/verify`, { result_id: 'res_2', verdict: 'fail', score: 0, signature: 'c2ln' })).json();
    const res = await signed(seller, 'GET', `/v1/contracts/${c.contract_id}/verification`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...report, checks: [] });
  });
});

describe('GET /v1/telemetry/verification', () => {
  it('should default the window to all and turn int64 strings into numbers', async () => {
    const res = await signed(buyer, 'GET', '/v1/telemetry/verification');
    expect(h.market.lastCall('getVerificationMetrics').request).toEqual({ window: M.VerificationWindow.VERIFICATION_WINDOW_ALL });
    expect(res.json()).toEqual({ window: 'all', reports: 4, passed: 3, failed: 1, pass_rate: 0.75, median_latency_ms: 5400 });
  });

  it('should answer nulls without reports and refuse an unknown window', async () => {
    const res = await signed(buyer, 'GET', '/v1/telemetry/verification?window=1h');
    expect(res.json()).toEqual({ window: '1h', reports: 0, passed: 0, failed: 0, pass_rate: null, median_latency_ms: null });
    expectProblem(await signed(buyer, 'GET', '/v1/telemetry/verification?window=2w'), 400, 'validation_failed');
  });
});

describe('POST /v1/verifiers', () => {
  it('should register a verifier profile (201) and carry 409 verifier_exists', async () => {
    const verifier = new TestAgent(uniqueAgentId('verifier'));
    await registerAgent(h.app, verifier);
    const res = await signed(verifier, 'POST', '/v1/verifiers', { name: 'Checker', tags: ['nlp'], fee: { amount: '2', currency: 'CREDIT' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      verifier_id: verifier.agentId,
      name: 'Checker',
      description: '',
      tags: ['nlp'],
      fee: { amount: '2', currency: 'CREDIT' },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    h.market.failNext('registerVerifier', errors.alreadyExists('verifier_exists', 'verifier exists'));
    expectProblem(await signed(verifier, 'POST', '/v1/verifiers', { name: 'Checker' }), 409, 'verifier_exists');
  });
});

describe('GET /v1/verifiers', () => {
  it('should list verifiers with a null fee when none', async () => {
    await asOperator('POST', '/v1/verifiers', { verifier_id: seller.agentId, name: 'No fee' }, { 'x-agent-id': seller.agentId });
    const res = await signed(buyer, 'GET', '/v1/verifiers?limit=10');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toContainEqual(expect.objectContaining({ name: 'No fee', fee: null }));
    expect(h.market.lastCall('listVerifiers').request).toEqual({ page: { limit: 10, cursor: '' } });
  });
});

describe('POST /v1/verifier-listings', () => {
  it('should create a verifier listing (201) and carry 404 verifier_not_found', async () => {
    const res = await signed(seller, 'POST', '/v1/verifier-listings', { title: 'Checks', price: { amount: '2', currency: 'CREDIT' }, turnaround: 'PT2H' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ verifier_listing_id: expect.stringMatching(/^vrf_/), verifier_id: seller.agentId, turnaround: 'PT2H', tags: [] });
    h.market.failNext('createVerifierListing', errors.notFound('verifier', buyer.agentId));
    expectProblem(await signed(buyer, 'POST', '/v1/verifier-listings', { title: 'C', price: { amount: '2', currency: 'CREDIT' }, turnaround: 'PT2H' }), 404, 'verifier_not_found');
  });

  it('should require turnaround (400 validation_failed)', async () => {
    expectProblem(await signed(seller, 'POST', '/v1/verifier-listings', { title: 'C', price: { amount: '2', currency: 'CREDIT' } }), 400, 'validation_failed');
  });
});

describe('GET /v1/verifier-listings', () => {
  it('should filter by verifier_id', async () => {
    const res = await signed(buyer, 'GET', `/v1/verifier-listings?verifier_id=${encodeURIComponent(seller.agentId)}`);
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listVerifierListings').request).toEqual({ page: { limit: 0, cursor: '' }, verifierId: seller.agentId });
    expect(res.json().data.length).toBeGreaterThan(0);
    expect(res.json().data.every((l: { verifier_id: string }) => l.verifier_id === seller.agentId)).toBe(true);
  });
});

describe('POST /v1/contracts/{contract_id}/disputes', () => {
  it('should open a dispute (201) and carry 403 not_contract_party', async () => {
    const c = await newContract();
    const res = await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'missing work', evidence_refs: [SHA] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      dispute_id: expect.stringMatching(/^dsp_/),
      contract_id: c.contract_id,
      opened_by: buyer.agentId,
      reason: 'missing work',
      evidence_refs: [SHA],
      status: 'open',
      outcome: null,
      seller_share_bps: null,
      rationale: null,
      resolved_by: null,
      resolved_at: null,
      receipt_id: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect((await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}`)).json()).toMatchObject({ status: 'disputed', disputed_from: 'open' });
    h.market.failNext('openDispute', errors.permissionDenied('not_contract_party', 'only the buyer or the awarded seller'));
    expectProblem(await signed(seller, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'x' }), 403, 'not_contract_party');
  });
});

describe('GET /v1/contracts/{contract_id}/disputes', () => {
  it('should list with opened_by and status filters', async () => {
    const c = await newContract();
    await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'r' });
    const res = await signed(buyer, 'GET', `/v1/contracts/${c.contract_id}/disputes?opened_by=${encodeURIComponent(buyer.agentId)}&status=open`);
    expect(res.json()).toEqual({ data: [expect.objectContaining({ reason: 'r', status: 'open' })], next_cursor: null });
    expect(h.market.lastCall('listDisputes').request).toEqual({
      contractId: c.contract_id,
      page: { limit: 0, cursor: '' },
      openedBy: buyer.agentId,
      status: M.DisputeStatus.DISPUTE_STATUS_OPEN,
    });
    expectProblem(await signed(buyer, 'GET', '/v1/contracts/ctr_missing/disputes'), 404, 'contract_not_found');
  });
});

describe('GET /v1/disputes/{dispute_id}', () => {
  it('should read a dispute and 404 dispute_not_found', async () => {
    const c = await newContract();
    const d = (await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'r' })).json();
    expect((await signed(seller, 'GET', `/v1/disputes/${d.dispute_id}`)).json()).toEqual(d);
    expectProblem(await signed(buyer, 'GET', '/v1/disputes/dsp_missing'), 404, 'dispute_not_found');
  });
});

describe('POST /v1/disputes/{dispute_id}/resolve', () => {
  it('should resolve as operator (200 Dispute) mapping outcome and share', async () => {
    const c = await newContract();
    const d = (await signed(buyer, 'POST', `/v1/contracts/${c.contract_id}/disputes`, { reason: 'r' })).json();
    const res = await asOperator('POST', `/v1/disputes/${d.dispute_id}/resolve`, { outcome: 'split', seller_share_bps: 3000, rationale: 'partial' });
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('resolveDispute').request).toEqual({
      disputeId: d.dispute_id,
      outcome: M.DisputeOutcome.DISPUTE_OUTCOME_SPLIT,
      sellerShareBps: 3000,
      rationale: 'partial',
      idempotencyKey: '',
    });
    expect(res.json()).toMatchObject({
      status: 'resolved',
      outcome: 'split',
      seller_share_bps: 3000,
      rationale: 'partial',
      resolved_by: 'operator:default',
      resolved_at: expect.stringMatching(ISO),
      receipt_id: expect.stringMatching(/^rcpt_/),
    });
  });

  it('should be operator-only, and carry 400 invalid_seller_share and 409 insufficient_funds', async () => {
    expect((await signed(buyer, 'POST', '/v1/disputes/dsp_x/resolve', { outcome: 'buyer', rationale: 'r' })).statusCode).toBe(403);
    h.market.failNext('resolveDispute', errors.invalidArgument('invalid_seller_share', 'seller_share_bps is required for split'));
    expectProblem(await asOperator('POST', '/v1/disputes/dsp_x/resolve', { outcome: 'split', rationale: 'r' }), 400, 'invalid_seller_share');
    h.market.failNext('resolveDispute', errors.failedPrecondition('insufficient_funds', 'the seller cannot pay back'));
    expectProblem(await asOperator('POST', '/v1/disputes/dsp_x/resolve', { outcome: 'buyer', rationale: 'r' }), 409, 'insufficient_funds');
  });
});
