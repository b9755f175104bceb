import { status } from '@grpc/grpc-js';
import { marketV1 } from '@exchange/proto';
import { awardedContract, grpcError, startMarketHarness, type MarketHarness, type TestAgent } from './market-harness';

const CS = marketV1.ContractStatus;
const RS = marketV1.ResultStatus;
const VM = marketV1.VerificationMode;
const checks = [{ name: 'has summary', ok: true }, { name: 'cites', ok: false, detail: 'no citation' }];

describe('market results and verification (gRPC)', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_verification' });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const submitResult = (contractId: string, seller: TestAgent, overrides: Partial<marketV1.SubmitResultRequest> = {}) =>
    h.client.submitResult({ contractId, sellerId: '', summary: 'done', artifactRefs: [`sha256:${'b'.repeat(64)}`], payloadJson: undefined, idempotencyKey: '', ...overrides }, h.as(seller));

  const report = (contractId: string, signer: TestAgent, resultId: string, verdict: 'pass' | 'fail', overrides: Partial<marketV1.SubmitVerificationRequest> = {}) =>
    h.client.submitVerification(
      {
        contractId,
        verifierId: '',
        resultId,
        verdict: verdict === 'pass' ? marketV1.Verdict.VERDICT_PASS : marketV1.Verdict.VERDICT_FAIL,
        score: 0.75,
        checks,
        signature: h.signReport(signer, { verifierId: signer.agentId, resultId, verdict, score: 0.75, checks }),
        idempotencyKey: '',
        ...overrides,
      },
      h.as(signer),
    );

  it('should accept results from the awarded seller only, on an awarded contract only', async () => {
    const { contract, seller, buyer } = await awardedContract(h);
    expect(await grpcError(submitResult(contract.contractId, buyer))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'not_awarded_seller' });
    expect(await grpcError(submitResult(contract.contractId, seller, { artifactRefs: ['md5:x'] }))).toMatchObject({ code: 'validation_failed', details: { field: 'artifact_refs' } });
    expect(await grpcError(submitResult(contract.contractId, seller, { payloadJson: '{bad' }))).toMatchObject({ code: 'validation_failed', details: { field: 'payload' } });
    const { result, contract: delivered } = await submitResult(contract.contractId, seller, { payloadJson: '{"words":120}' });
    expect(result).toMatchObject({ status: RS.RESULT_STATUS_SUBMITTED, sellerId: seller.agentId, payloadJson: '{"words":120}' });
    expect(delivered!.status).toBe(CS.CONTRACT_STATUS_DELIVERED);
    expect(await grpcError(submitResult(contract.contractId, seller))).toMatchObject({
      grpcCode: status.FAILED_PRECONDITION,
      code: 'invalid_state',
      details: { current: 'delivered', wanted: 'delivered' },
    });
    expect((await h.client.getResult({ resultId: result!.resultId })).result).toEqual(result);
    expect((await h.client.listResults({ contractId: contract.contractId, sellerId: seller.agentId, page: undefined })).results).toHaveLength(1);
    expect(await grpcError(h.client.getResult({ resultId: 'res_nope' }))).toMatchObject({ code: 'result_not_found' });
    expect(await grpcError(h.client.listResults({ contractId: 'ctr_nope', page: undefined }))).toMatchObject({ code: 'contract_not_found' });
  });

  it('should reopen the contract on a failing report and settle on a later passing one', async () => {
    const { contract, seller, buyer } = await awardedContract(h);
    const first = (await submitResult(contract.contractId, seller)).result!;
    const failed = await report(contract.contractId, buyer, first.resultId, 'fail');
    expect(failed.contract!.status).toBe(CS.CONTRACT_STATUS_AWARDED);
    expect(failed.report).toMatchObject({ verdict: marketV1.Verdict.VERDICT_FAIL, score: 0.75, checks, verifierId: buyer.agentId });
    expect((await h.client.getResult({ resultId: first.resultId })).result!.status).toBe(RS.RESULT_STATUS_REJECTED);
    // The rejected result cannot be judged again.
    expect(await grpcError(report(contract.contractId, buyer, first.resultId, 'pass'))).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'invalid_state' });

    const second = (await submitResult(contract.contractId, seller)).result!;
    const passed = await report(contract.contractId, buyer, second.resultId, 'pass');
    expect(passed.contract).toMatchObject({ status: CS.CONTRACT_STATUS_SETTLED, escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_SETTLED });
    expect(await h.balances(seller.agentId)).toEqual({ available: '99', held: '0' });
    const latest = await h.client.getLatestVerification({ contractId: contract.contractId });
    expect(latest.report!.reportId).toBe(passed.report!.reportId);
    const types = (await h.outbox(contract.contractId)).map((e) => e.type.replace('exchange.market.contract.', ''));
    expect(types).toEqual(['created', 'awarded', 'delivered', 'reopened', 'delivered', 'accepted', 'settled']);
    expect((await h.outbox(passed.report!.reportId)).map((e) => e.type)).toEqual(['exchange.market.verification.submitted']);
  });

  it('should refuse wrong signers, forged signatures, unknown results and bad scores', async () => {
    const { contract, seller, buyer } = await awardedContract(h);
    const { result } = await submitResult(contract.contractId, seller);
    const rid = result!.resultId;
    expect(await grpcError(report(contract.contractId, seller, rid, 'pass'))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'not_contract_verifier' });
    const forger = h.newAgent('forger');
    const forged = h.signReport(forger, { verifierId: buyer.agentId, resultId: rid, verdict: 'pass', score: 0.75, checks });
    expect(await grpcError(report(contract.contractId, buyer, rid, 'pass', { signature: forged }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'report_signature_invalid',
    });
    // Signed over another score than the one sent.
    expect(await grpcError(report(contract.contractId, buyer, rid, 'pass', { score: 0.5 }))).toMatchObject({ code: 'report_signature_invalid' });
    expect(await grpcError(report(contract.contractId, buyer, rid, 'pass', { signature: 'not base64!' }))).toMatchObject({ code: 'report_signature_invalid' });
    expect(await grpcError(report(contract.contractId, buyer, 'res_nope', 'pass'))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'result_not_found' });
    expect(await grpcError(report(contract.contractId, buyer, rid, 'pass', { score: 1.5 }))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'invalid_score' });
    expect(await grpcError(h.client.getLatestVerification({ contractId: contract.contractId }))).toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: 'verification_not_found',
    });
    // Still delivered: nothing was stored.
    expect((await h.client.getContract({ contractId: contract.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_DELIVERED);
  });

  it('should refuse a report on a contract that is not delivered (409)', async () => {
    const { contract, seller, buyer } = await awardedContract(h);
    const { result } = await submitResult(contract.contractId, seller);
    await report(contract.contractId, buyer, result!.resultId, 'fail');
    const again = h.signReport(buyer, { verifierId: buyer.agentId, resultId: result!.resultId, verdict: 'fail', score: 0.75, checks });
    expect(await grpcError(report(contract.contractId, buyer, result!.resultId, 'fail', { signature: again }))).toMatchObject({
      grpcCode: status.FAILED_PRECONDITION,
      code: 'invalid_state',
    });
  });

  it('should settle at delivery in mode auto and refuse reports there', async () => {
    const { contract, seller, buyer } = await awardedContract(h, { contract: { verificationMode: VM.VERIFICATION_MODE_AUTO } });
    const res = await submitResult(contract.contractId, seller);
    expect(res.result!.status).toBe(RS.RESULT_STATUS_ACCEPTED);
    expect(res.contract).toMatchObject({ status: CS.CONTRACT_STATUS_SETTLED, escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_SETTLED });
    expect((await h.client.getResult({ resultId: res.result!.resultId })).result!.status).toBe(RS.RESULT_STATUS_ACCEPTED);
    expect(await h.balances(seller.agentId)).toEqual({ available: '99', held: '0' });
    expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '0' });
    expect(await grpcError(report(contract.contractId, buyer, res.result!.resultId, 'pass'))).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'invalid_state' });
  });

  it('should take reports from the registered verifier in mode verifier and not from the buyer', async () => {
    const verifier = h.newAgent('verifier');
    const reg = await h.client.registerVerifier(
      { verifierId: verifier.agentId, name: 'Checker', description: 'checks things', tags: ['nlp'], fee: { amount: '1', currency: 'CREDIT' }, idempotencyKey: '' },
      h.as(verifier),
    );
    expect(reg.verifier).toMatchObject({ verifierId: verifier.agentId, fee: { amount: '1', currency: 'CREDIT' } });
    expect(await grpcError(h.client.registerVerifier({ verifierId: '', name: 'again', description: '', tags: [], fee: undefined, idempotencyKey: '' }, h.as(verifier)))).toMatchObject({
      grpcCode: status.ALREADY_EXISTS,
      code: 'verifier_exists',
    });
    const { contract, seller, buyer } = await awardedContract(h, { contract: { verificationMode: VM.VERIFICATION_MODE_VERIFIER, verifierId: verifier.agentId } });
    const { result } = await submitResult(contract.contractId, seller);
    expect(await grpcError(report(contract.contractId, buyer, result!.resultId, 'pass'))).toMatchObject({ code: 'not_contract_verifier' });
    const passed = await report(contract.contractId, verifier, result!.resultId, 'pass');
    expect(passed.contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
  });

  it('should list verifiers and verifier listings and refuse listings without a profile', async () => {
    const verifier = h.newAgent('verifier');
    await h.client.registerVerifier({ verifierId: '', name: 'L', description: '', tags: [], fee: undefined, idempotencyKey: '' }, h.as(verifier));
    const { verifierListing } = await h.client.createVerifierListing(
      { verifierId: '', title: 'Fast check', tags: ['code'], price: { amount: '2', currency: 'CREDIT' }, turnaround: 'PT2H', idempotencyKey: '' },
      h.as(verifier),
    );
    expect(verifierListing!.verifierListingId).toMatch(/^vrf_/);
    const listed = await h.client.listVerifierListings({ verifierId: verifier.agentId, page: undefined });
    expect(listed.verifierListings).toEqual([verifierListing]);
    const verifiers = await h.client.listVerifiers({ page: { limit: 1, cursor: '' } });
    expect(verifiers.verifiers.map((v) => v.verifierId)).toEqual([verifier.agentId]);
    const stranger = h.newAgent('stranger');
    const base = { verifierId: '', title: 'T', tags: [], price: { amount: '2', currency: 'CREDIT' }, turnaround: 'PT2H', idempotencyKey: '' };
    expect(await grpcError(h.client.createVerifierListing(base, h.as(stranger)))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'verifier_not_found' });
    expect(await grpcError(h.client.createVerifierListing({ ...base, turnaround: '' }, h.as(verifier)))).toMatchObject({ code: 'invalid_turnaround' });
    expect((await h.outbox(verifier.agentId)).map((e) => e.type)).toEqual(['exchange.market.verifier.registered']);
  });

  it('should report verification metrics per window', async () => {
    const all = await h.client.getVerificationMetrics({ window: marketV1.VerificationWindow.VERIFICATION_WINDOW_UNSPECIFIED });
    expect(all.window).toBe(marketV1.VerificationWindow.VERIFICATION_WINDOW_ALL);
    const { rows } = await h.marketSql.query(`SELECT verdict, count(*)::int AS n FROM verification_reports GROUP BY verdict`);
    const count = (v: string) => rows.find((r) => r.verdict === v)?.n ?? 0;
    expect(all).toMatchObject({ reports: String(count('pass') + count('fail')), passed: String(count('pass')), failed: String(count('fail')) });
    expect(all.passRate).toBeCloseTo(count('pass') / (count('pass') + count('fail')));
    expect(Number(all.medianLatencyMs)).toBeGreaterThanOrEqual(0);
    h.clock.advance(2 * 3_600_000);
    const lastHour = await h.client.getVerificationMetrics({ window: marketV1.VerificationWindow.VERIFICATION_WINDOW_1H });
    expect(lastHour).toMatchObject({ reports: '0', passed: '0', failed: '0' });
    expect(lastHour.passRate).toBeUndefined();
    expect(lastHour.medianLatencyMs).toBeUndefined();
    const lastDay = await h.client.getVerificationMetrics({ window: marketV1.VerificationWindow.VERIFICATION_WINDOW_1D });
    expect(lastDay.reports).toBe(all.reports);
  });
});
