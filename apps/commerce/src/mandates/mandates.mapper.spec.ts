import { DomainError } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import type { MandateRecord } from './mandate.model';
import { actorOf, autonomyInput, createMandateInput, statusFilter, toProtoAutonomy, toProtoMandate } from './mandates.mapper';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const record: MandateRecord = {
  mandateId: 'mdt_1',
  signerAgentId: 'agt_s',
  agentId: 'agt_b',
  scope: { merchants: ['shop.example'], categories: [], skus: ['a'] },
  limits: { perTransaction: 25_500_000n, total: 100_000_000n, currency: 'USD' },
  expiresAt: new Date('2026-07-01T00:00:00.000Z'),
  signature: 'sig',
  status: 'active',
  spent: 1n,
  reserved: 2_000_000n,
  autonomy: { mode: 'step_up', stepUpThreshold: { amount: 20_000_000n, currency: 'USD' }, approvalForNewMerchants: true, dailyLimit: null },
  createdAt: NOW,
  updatedAt: NOW,
};

describe('mandates mapper', () => {
  it('should encode amounts as decimals and the effective status', () => {
    const p = toProtoMandate(record, NOW);
    expect(p).toMatchObject({
      perTransaction: '25.5',
      totalLimit: '100',
      spent: '0.000001',
      reserved: '2',
      status: commerceV1.MandateStatus.MANDATE_STATUS_ACTIVE,
      scopeMerchants: ['shop.example'],
    });
    expect(toProtoMandate(record, record.expiresAt).status).toBe(commerceV1.MandateStatus.MANDATE_STATUS_EXPIRED);
    expect(toProtoMandate({ ...record, spent: 100_000_000n }, NOW).status).toBe(commerceV1.MandateStatus.MANDATE_STATUS_EXHAUSTED);
  });

  it('should encode autonomy, leaving absent settings out', () => {
    expect(toProtoAutonomy(record.autonomy)).toEqual({
      mode: commerceV1.AutonomyMode.AUTONOMY_MODE_STEP_UP,
      stepUpThreshold: { amount: '20', currency: 'USD' },
      approvalForNewMerchants: true,
      dailyLimit: undefined,
    });
    const json = commerceV1.Autonomy.toJSON(toProtoAutonomy({ mode: 'autonomous', stepUpThreshold: null, approvalForNewMerchants: false, dailyLimit: 5n }));
    expect(json).toEqual({ mode: 'AUTONOMY_MODE_AUTONOMOUS', dailyLimit: '0.000005' });
  });

  it('should read the actor (empty agent_id is none)', () => {
    expect(actorOf(undefined)).toEqual({ agentId: null, operator: false });
    expect(actorOf({ agentId: '', operator: true })).toEqual({ agentId: null, operator: true });
    expect(actorOf({ agentId: 'agt_s', operator: false })).toEqual({ agentId: 'agt_s', operator: false });
  });

  it('should read autonomy with UNSPECIFIED mode as not given, and require the message on PUT', () => {
    expect(autonomyInput({ mode: 0, stepUpThreshold: undefined, approvalForNewMerchants: false }).mode).toBeUndefined();
    expect(autonomyInput({ mode: 3, stepUpThreshold: undefined, approvalForNewMerchants: false }).mode).toBe('manual');
    expect(() => autonomyInput(undefined)).toThrow(DomainError);
  });

  it('should map a create request field by field', () => {
    const req = commerceV1.CreateMandateRequest.fromPartial({ signerAgentId: 'agt_s', perTransaction: '1', idempotencyKey: 'k' });
    expect(createMandateInput(req)).toMatchObject({ signerAgentId: 'agt_s', perTransaction: '1', idempotencyKey: 'k', autonomy: undefined });
  });

  it('should read the status filter (UNSPECIFIED = none, unknown = 400)', () => {
    expect(statusFilter(undefined)).toBeUndefined();
    expect(statusFilter(0)).toBeUndefined();
    expect(statusFilter(commerceV1.MandateStatus.MANDATE_STATUS_EXPIRED)).toBe('expired');
    expect(() => statusFilter(99 as commerceV1.MandateStatus)).toThrow(DomainError);
  });
});
