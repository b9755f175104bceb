import { marketV1 } from '@exchange/proto';
import { contractStatusFilter, disputeOutcomeFromJson, verdictFromJson, verificationModeFromJson, windowFromJson } from './market.enums';
import { contractToJson, resaleReviewToJson, disputeToJson, metricsToJson, payloadToJsonText, reportToJson, resultToJson } from './market.mapper';
import { MarketContractError } from '../mapper-kit';
import { nextCursorToJson, pageFromQuery } from '../pagination';
import { partyFromJson } from '../acting-agent';

const M = marketV1;
const T = new Date('2026-11-21T18:00:00.000Z');

const contract = (over: Partial<marketV1.Contract> = {}): marketV1.Contract => ({
  contractId: 'ctr_1',
  labels: {},
  inputRefs: [],
  buyerId: 'a:agent:b',
  title: 't',
  description: '',
  tags: ['x'],
  budget: { amount: '100', currency: 'CREDIT' },
  deadline: T,
  acceptanceCriteria: 'c',
  verificationMode: M.VerificationMode.VERIFICATION_MODE_BUYER,
  status: M.ContractStatus.CONTRACT_STATUS_OPEN,
  escrowStatus: M.EscrowStatus.ESCROW_STATUS_NONE,
  createdAt: T,
  updatedAt: T,
  buyerPrivate: false,
  buyerAliasGeneration: 0,
  sandbox: false,
  ...over,
});

describe('contractToJson', () => {
  it('should show a hidden private buyer as buyer_id null with the alias', () => {
    expect(contractToJson(contract({ buyerId: '', buyerPrivate: true, buyerAlias: 'anon:abcdefghijkl' }))).toMatchObject({
      buyer_id: null,
      buyer_private: true,
      buyer_alias: 'anon:abcdefghijkl',
    });
  });

  it('should turn absent optionals into null and enums into lowercase names', () => {
    expect(contractToJson(contract())).toEqual({
      contract_id: 'ctr_1',
      buyer_id: 'a:agent:b',
      buyer_private: false,
      buyer_alias: null,
      title: 't',
      description: '',
      tags: ['x'],
      budget: { amount: '100', currency: 'CREDIT' },
      deadline: '2026-11-21T18:00:00.000Z',
      acceptance_criteria: 'c',
      verification_mode: 'buyer',
      verifier_id: null,
      listing_id: null,
      status: 'open',
      seller_id: null,
      awarded_offer_id: null,
      price: null,
      hold_id: null,
      escrow_status: 'none',
      receipt_id: null,
      disputed_from: null,
      cancel_reason: null,
      created_at: '2026-11-21T18:00:00.000Z',
      updated_at: '2026-11-21T18:00:00.000Z',
      awarded_at: null,
      settled_at: null,
      template_id: null,
      work_product_template_id: null,
      fixture_id: null,
      resale_of: null,
      resale_review: null,
      sandbox: false,
      corrected_at: null,
      correction_receipt_id: null,
      correction_reason: null,
      labels: {},
      input_refs: [],
    });
  });

  it('should copy labels and input_refs as given', () => {
    const json = contractToJson(contract({ labels: { stage: 'map', shard: '2' }, inputRefs: ['res_1', 'res_1'] }));
    expect([json.labels, json.input_refs]).toEqual([{ stage: 'map', shard: '2' }, ['res_1', 'res_1']]);
  });

  it('should map the catalog, resale, sandbox and correction fields when present', () => {
    const json = contractToJson(
      contract({
        status: M.ContractStatus.CONTRACT_STATUS_CORRECTED,
        templateId: 'code-change-with-tests',
        workProductTemplateId: 'patch-with-tests',
        fixtureId: 'fx-1',
        resaleOf: 'ctr_0',
        resaleReview: {
          decisionRef: 'rld_1',
          contractId: 'ctr_1',
          resaleOf: 'ctr_0',
          rootContractId: 'ctr_0',
          depth: 1,
          lineage: ['ctr_0'],
          status: M.ResaleReviewStatus.RESALE_REVIEW_STATUS_APPROVED,
          decidedBy: 'operator:default',
          reason: 'ok',
          decidedAt: T,
          createdAt: T,
          updatedAt: T,
        },
        sandbox: true,
        correctedAt: T,
        correctionReceiptId: 'rcpt_2',
        correctionReason: 'forged',
      }),
    );
    expect(json).toMatchObject({
      status: 'corrected',
      template_id: 'code-change-with-tests',
      work_product_template_id: 'patch-with-tests',
      fixture_id: 'fx-1',
      resale_of: 'ctr_0',
      resale_review: { decision_ref: 'rld_1', status: 'approved', decided_by: 'operator:default', decided_at: T.toISOString(), lineage: ['ctr_0'] },
      sandbox: true,
      corrected_at: T.toISOString(),
      correction_receipt_id: 'rcpt_2',
      correction_reason: 'forged',
    });
  });

  it('should refuse a resale review without a known status', () => {
    expect(() =>
      resaleReviewToJson({
        decisionRef: 'rld_1', contractId: 'c', resaleOf: 'p', rootContractId: 'p', depth: 1, lineage: [],
        status: M.ResaleReviewStatus.RESALE_REVIEW_STATUS_UNSPECIFIED, createdAt: T, updatedAt: T,
      }),
    ).toThrow(MarketContractError);
  });

  it('should map the award, escrow and dispute fields when present', () => {
    const json = contractToJson(
      contract({
        status: M.ContractStatus.CONTRACT_STATUS_DISPUTED,
        disputedFrom: M.ContractStatus.CONTRACT_STATUS_SETTLED,
        sellerId: 'a:agent:s',
        price: { amount: '90', currency: 'CREDIT' },
        escrowStatus: M.EscrowStatus.ESCROW_STATUS_SETTLED,
        receiptId: 'rcpt_1',
        settledAt: T,
      }),
    );
    expect(json).toMatchObject({
      status: 'disputed',
      disputed_from: 'settled',
      seller_id: 'a:agent:s',
      price: { amount: '90', currency: 'CREDIT' },
      escrow_status: 'settled',
      receipt_id: 'rcpt_1',
      settled_at: '2026-11-21T18:00:00.000Z',
    });
  });

  it('should refuse a response without the guaranteed fields (a market bug → 500)', () => {
    expect(() => contractToJson(undefined)).toThrow(MarketContractError);
    expect(() => contractToJson(contract({ budget: undefined }))).toThrow('market returned no valid contract budget');
    expect(() => contractToJson(contract({ status: M.ContractStatus.CONTRACT_STATUS_UNSPECIFIED }))).toThrow(MarketContractError);
  });
});

describe('resultToJson', () => {
  const result = (payloadJson?: string): marketV1.Result => ({
    resultId: 'res_1',
    contractId: 'ctr_1',
    sellerId: 's',
    summary: 'done',
    artifactRefs: [],
    payloadJson,
    status: M.ResultStatus.RESULT_STATUS_ACCEPTED,
    createdAt: T,
    updatedAt: T,
  });

  it('should parse payload_json into payload, null when absent', () => {
    expect(resultToJson(result('{"a":[1,2]}')).payload).toEqual({ a: [1, 2] });
    expect(resultToJson(result('"text"')).payload).toBe('text');
    expect(resultToJson(result()).payload).toBeNull();
    expect(resultToJson(result()).status).toBe('accepted');
  });

  it('should refuse payload_json that is not JSON', () => {
    expect(() => resultToJson(result('{nope'))).toThrow('market returned no valid result payload_json');
  });

  it('should round-trip a payload through payloadToJsonText', () => {
    const payload = { n: 1.5, s: 'é', list: [null, true] };
    expect(resultToJson(result(payloadToJsonText(payload))).payload).toEqual(payload);
    expect(payloadToJsonText(undefined)).toBeUndefined();
  });
});

describe('reportToJson and metricsToJson', () => {
  // Was `detail: null` for a check without detail; issue 13: the checks come back exactly as signed.
  it('should leave a check without detail without a detail key (as signed)', () => {
    const json = reportToJson({
      reportId: 'rpt_1',
      contractId: 'ctr_1',
      resultId: 'res_1',
      verifierId: 'v',
      verdict: M.Verdict.VERDICT_FAIL,
      score: 0.25,
      checks: [{ name: 'a', ok: false }, { name: 'b', ok: true, detail: 'fine' }],
      signature: 'sig',
      createdAt: T,
    });
    expect(json).toMatchObject({ verdict: 'fail', score: 0.25 });
    expect(json.checks).toEqual([{ name: 'a', ok: false }, { name: 'b', ok: true, detail: 'fine' }]);
    expect(Object.keys(json.checks[0])).toEqual(['name', 'ok']);
  });

  it('should turn int64 strings into numbers and absent rates into null', () => {
    expect(metricsToJson({ window: M.VerificationWindow.VERIFICATION_WINDOW_7D, reports: '3', passed: '2', failed: '1', passRate: 2 / 3, medianLatencyMs: '1500' })).toEqual({
      window: '7d',
      reports: 3,
      passed: 2,
      failed: 1,
      pass_rate: 2 / 3,
      median_latency_ms: 1500,
    });
    expect(metricsToJson({ window: M.VerificationWindow.VERIFICATION_WINDOW_ALL, reports: '0', passed: '0', failed: '0' })).toMatchObject({
      pass_rate: null,
      median_latency_ms: null,
    });
  });
});

describe('disputeToJson', () => {
  it('should map an open dispute with nulls and a resolved one with its outcome', () => {
    const base: marketV1.Dispute = {
      disputeId: 'dsp_1',
      contractId: 'ctr_1',
      openedBy: 'b',
      reason: 'r',
      evidenceRefs: [],
      status: M.DisputeStatus.DISPUTE_STATUS_OPEN,
      createdAt: T,
      updatedAt: T,
    };
    expect(disputeToJson(base)).toMatchObject({ status: 'open', outcome: null, seller_share_bps: null, resolved_at: null, receipt_id: null });
    expect(
      disputeToJson({ ...base, status: M.DisputeStatus.DISPUTE_STATUS_RESOLVED, outcome: M.DisputeOutcome.DISPUTE_OUTCOME_SPLIT, sellerShareBps: 3000, resolvedAt: T }),
    ).toMatchObject({ status: 'resolved', outcome: 'split', seller_share_bps: 3000, resolved_at: '2026-11-21T18:00:00.000Z' });
  });
});

describe('request helpers', () => {
  it('should map enums from JSON, absent filters to absent and absent defaults to UNSPECIFIED/all', () => {
    expect(verificationModeFromJson(undefined)).toBe(M.VerificationMode.VERIFICATION_MODE_UNSPECIFIED);
    expect(verificationModeFromJson('verifier')).toBe(M.VerificationMode.VERIFICATION_MODE_VERIFIER);
    expect(contractStatusFilter(undefined)).toBeUndefined();
    expect(contractStatusFilter('corrected')).toBe(M.ContractStatus.CONTRACT_STATUS_CORRECTED);
    expect(disputeOutcomeFromJson('buyer')).toBe(M.DisputeOutcome.DISPUTE_OUTCOME_BUYER);
    expect(verdictFromJson('pass')).toBe(M.Verdict.VERDICT_PASS);
    expect(windowFromJson(undefined)).toBe(M.VerificationWindow.VERIFICATION_WINDOW_ALL);
    expect(windowFromJson('1d')).toBe(M.VerificationWindow.VERIFICATION_WINDOW_1D);
    expect(partyFromJson(undefined)).toBe('');
    expect(pageFromQuery({})).toEqual({ limit: 0, cursor: '' });
    expect(nextCursorToJson({ nextCursor: '' })).toBeNull();
    expect(nextCursorToJson({ nextCursor: 'c' })).toBe('c');
  });
});
