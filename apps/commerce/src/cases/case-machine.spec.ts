import { DomainError } from '@exchange/platform';
import type { CaseStatus } from './case.model';
import { canMove, isDecided, requireEvidenceOpen, requireMove } from './case-machine';

const ALL: CaseStatus[] = ['open', 'under_review', 'approved', 'denied', 'closed'];

function failure(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('case state machine', () => {
  it('should allow exactly open → under_review → approved | denied → closed', () => {
    const allowed = ALL.flatMap((from) => ALL.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`));
    expect(allowed).toEqual(['open→under_review', 'under_review→approved', 'under_review→denied', 'approved→closed', 'denied→closed']);
  });

  it('should refuse a skipped step, a way back and a repeat with 409 invalid_state naming current and wanted', () => {
    for (const [from, to] of [['open', 'approved'], ['approved', 'under_review'], ['approved', 'approved'], ['closed', 'open']] as Array<[CaseStatus, CaseStatus]>) {
      const err = failure(() => requireMove(from, to));
      expect({ code: err.code, details: err.details }).toEqual({ code: 'invalid_state', details: { current: from, wanted: to } });
    }
    expect(requireMove('under_review', 'denied')).toBe('denied');
  });

  it('should take evidence until the case is decided', () => {
    expect(ALL.filter((s) => !isDecided(s))).toEqual(['open', 'under_review']);
    expect(() => requireEvidenceOpen('under_review')).not.toThrow();
    const err = failure(() => requireEvidenceOpen('denied'));
    expect({ code: err.code, details: err.details }).toEqual({ code: 'invalid_state', details: { current: 'denied', wanted: 'add_evidence' } });
  });
});
