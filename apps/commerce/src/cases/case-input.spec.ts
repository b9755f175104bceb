import { DomainError } from '@exchange/platform';
import { openingAmount, remaining, requireRefundFits, validateCreateCase, validateUpdateCase, type CreateCaseInput } from './case-input';

function failure(fn: () => unknown): { code: string; details?: Record<string, unknown> } {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, details: err.details };
    throw err;
  }
  throw new Error('expected a DomainError');
}

const input = (over: Partial<CreateCaseInput> = {}): CreateCaseInput => ({
  dealId: 'deal_1',
  type: 'refund',
  reason: ' arrived broken ',
  evidenceRefs: ['photo-1', 'photo-1', 'sha256:abc'],
  idempotencyKey: '',
  ...over,
});

describe('validateCreateCase', () => {
  it('should trim the reason, drop duplicate refs and parse the amount to micro-units', () => {
    expect(validateCreateCase(input({ amount: '12.5' }))).toEqual({ dealId: 'deal_1', type: 'refund', reason: 'arrived broken', amount: 12_500_000n, evidenceRefs: ['photo-1', 'sha256:abc'] });
    expect(validateCreateCase(input()).amount).toBeNull();
  });

  it('should refuse a missing type, an empty reason, a bad deal id, bad refs and non-positive amounts', () => {
    expect(failure(() => validateCreateCase(input({ type: undefined })))).toMatchObject({ code: 'validation_failed', details: { field: 'type' } });
    expect(failure(() => validateCreateCase(input({ reason: '  ' })))).toMatchObject({ code: 'validation_failed', details: { field: 'reason' } });
    expect(failure(() => validateCreateCase(input({ reason: 'x'.repeat(2001) })))).toMatchObject({ code: 'validation_failed', details: { field: 'reason' } });
    expect(failure(() => validateCreateCase(input({ dealId: 'deal 1' })))).toMatchObject({ code: 'validation_failed', details: { field: 'deal_id' } });
    expect(failure(() => validateCreateCase(input({ evidenceRefs: ['a\u0000b'] })))).toMatchObject({ code: 'validation_failed', details: { field: 'evidence_refs' } });
    expect(failure(() => validateCreateCase(input({ evidenceRefs: Array.from({ length: 21 }, (_, i) => `r${i}`) })))).toMatchObject({ code: 'validation_failed' });
    expect(failure(() => validateCreateCase(input({ amount: '0' })))).toMatchObject({ code: 'invalid_amount' });
    expect(failure(() => validateCreateCase(input({ amount: '-1' })))).toMatchObject({ code: 'invalid_amount' });
    expect(failure(() => validateCreateCase(input({ amount: '1.0000001' })))).toMatchObject({ code: 'invalid_amount' });
  });
});

describe('validateUpdateCase', () => {
  it('should need a status or evidence (a note alone changes nothing)', () => {
    expect(failure(() => validateUpdateCase({ caseId: 'case_1', addEvidenceRefs: [], note: 'hi' }))).toMatchObject({ code: 'validation_failed', details: { field: 'status' } });
    expect(validateUpdateCase({ caseId: 'case_1', status: 'approved', addEvidenceRefs: [], note: '' })).toEqual({ caseId: 'case_1', status: 'approved', addEvidenceRefs: [], note: null });
  });
});

describe('refund amounts', () => {
  const paid = { amount: 70_000_000n, refunded: 20_000_000n };

  it('should default a new case to what remains and refuse more than remains', () => {
    expect(remaining(paid)).toBe(50_000_000n);
    expect(openingAmount(paid, null)).toBe(50_000_000n);
    expect(openingAmount(paid, 50_000_000n)).toBe(50_000_000n);
    expect(failure(() => openingAmount(paid, 50_000_001n))).toEqual({ code: 'refund_exceeds_paid', details: { paid: '70', refunded: '20', requested: '50.000001' } });
    expect(failure(() => openingAmount({ amount: 5n, refunded: 5n }, null))).toMatchObject({ code: 'refund_exceeds_paid' });
  });

  it('should let an approval through only while refunded + amount stays within what was paid', () => {
    expect(() => requireRefundFits(paid, 50_000_000n)).not.toThrow();
    expect(failure(() => requireRefundFits(paid, 50_000_001n))).toMatchObject({ code: 'refund_exceeds_paid' });
  });
});
