import { commerceV1 } from '@exchange/proto';
import { CommerceContractError } from '../../lib/mapper-kit';
import { autonomyFromJson, autonomyToJson, mandateToJson } from './mandates.mapper';

const C = commerceV1;
const T = new Date('2026-11-21T18:00:00.000Z');
const autonomy = { mode: C.AutonomyMode.AUTONOMY_MODE_AUTONOMOUS, stepUpThreshold: { amount: '5', currency: 'USD' }, approvalForNewMerchants: true, dailyLimit: '20' };

describe('autonomy', () => {
  it('should round-trip REST ⇄ proto', () => {
    const json = autonomyToJson(autonomy);
    expect(json).toEqual({ mode: 'autonomous', step_up_threshold: { amount: '5', currency: 'USD' }, approval_for_new_merchants: true, daily_limit: '20' });
    expect(autonomyFromJson({ ...json, step_up_threshold: json.step_up_threshold ?? undefined, daily_limit: '20' })).toEqual(autonomy);
  });

  it('should map an absent threshold to null and back', () => {
    expect(autonomyToJson({ ...autonomy, stepUpThreshold: undefined }).step_up_threshold).toBeNull();
    expect(autonomyFromJson({ mode: 'autonomous', approval_for_new_merchants: false }).stepUpThreshold).toBeUndefined();
  });

  it('should refuse an answer with an UNSPECIFIED mode', () => {
    expect(() => autonomyToJson({ ...autonomy, mode: C.AutonomyMode.AUTONOMY_MODE_UNSPECIFIED })).toThrow(CommerceContractError);
  });
});

describe('mandateToJson', () => {
  const m: commerceV1.Mandate = {
    mandateId: 'mdt_1', signerAgentId: 's', agentId: 'a', scopeMerchants: ['m'], scopeCategories: [], scopeSkus: ['k'],
    perTransaction: '1', totalLimit: '2', currency: 'USD', expiresAt: T, signature: 'sig', status: C.MandateStatus.MANDATE_STATUS_EXHAUSTED,
    spent: '2', reserved: '0', autonomy, createdAt: T, updatedAt: T,
  };

  it('should group scope and limits and name the status', () => {
    expect(mandateToJson(m)).toMatchObject({ scope: { merchants: ['m'], categories: [], skus: ['k'] }, limits: { per_transaction: '1', total: '2', currency: 'USD' }, status: 'exhausted' });
  });

  it('should refuse a mandate without expires_at or autonomy', () => {
    expect(() => mandateToJson({ ...m, expiresAt: undefined })).toThrow(CommerceContractError);
    expect(() => mandateToJson({ ...m, autonomy: undefined })).toThrow(CommerceContractError);
  });
});
