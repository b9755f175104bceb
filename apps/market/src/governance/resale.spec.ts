import { DomainError } from '@exchange/platform';
import {
  checkAwardable,
  checkNoResaleCycle,
  checkResaleParent,
  decide,
  decisionReason,
  lineageOf,
  parseDecision,
  rejectionCancelReason,
  type ResaleReview,
} from './resale';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as DomainError).code;
  }
  return 'no error';
};

const review = (over: Partial<ResaleReview> = {}): ResaleReview => ({
  decisionRef: 'rld_1',
  contractId: 'ctr_3',
  resaleOf: 'ctr_2',
  rootContractId: 'ctr_1',
  depth: 2,
  lineage: ['ctr_1', 'ctr_2'],
  status: 'pending',
  decidedBy: null,
  reason: null,
  decidedAt: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...over,
});

describe('resale rules', () => {
  it('should accept a resale by the awarded seller of an awarded or delivered parent', () => {
    expect(codeOf(() => checkResaleParent({ contractId: 'ctr_1', status: 'awarded', sellerId: 's' }, 's'))).toBe('no error');
    expect(codeOf(() => checkResaleParent({ contractId: 'ctr_1', status: 'delivered', sellerId: 's' }, 's'))).toBe('no error');
  });

  it('should refuse a buyer who is not the awarded seller, then a parent in another state', () => {
    expect(codeOf(() => checkResaleParent({ contractId: 'ctr_1', status: 'open', sellerId: null }, 's'))).toBe('resale_not_party');
    expect(codeOf(() => checkResaleParent({ contractId: 'ctr_1', status: 'awarded', sellerId: 'x' }, 's'))).toBe('resale_not_party');
    expect(codeOf(() => checkResaleParent({ contractId: 'ctr_1', status: 'settled', sellerId: 's' }, 's'))).toBe('invalid_state');
    expect(codeOf(() => checkResaleParent({ contractId: 'ctr_1', status: 'cancelled', sellerId: 's' }, 's'))).toBe('invalid_state');
  });

  it('should compute the lineage root first and refuse one deeper than the maximum', () => {
    expect(lineageOf(['ctr_1'], 3)).toEqual({ rootContractId: 'ctr_1', depth: 1, lineage: ['ctr_1'] });
    expect(lineageOf(['ctr_1', 'ctr_2', 'ctr_3'], 3)).toEqual({ rootContractId: 'ctr_1', depth: 3, lineage: ['ctr_1', 'ctr_2', 'ctr_3'] });
    expect(codeOf(() => lineageOf(['ctr_1', 'ctr_2', 'ctr_3', 'ctr_4'], 3))).toBe('resale_depth_exceeded');
    expect(codeOf(() => lineageOf(['ctr_1', 'ctr_2'], 1))).toBe('resale_depth_exceeded');
  });

  it('should refuse an offer from an upstream buyer', () => {
    expect(codeOf(() => checkNoResaleCycle(['a', 'b'], 'b'))).toBe('resale_cycle');
    expect(codeOf(() => checkNoResaleCycle(['a', 'b'], 'c'))).toBe('no error');
  });

  it('should block awards only while the review is pending', () => {
    expect(codeOf(() => checkAwardable(review()))).toBe('resale_review_pending');
    expect(codeOf(() => checkAwardable(review({ status: 'approved' })))).toBe('no error');
    expect(codeOf(() => checkAwardable(null))).toBe('no error');
  });

  it('should decide a pending review once', () => {
    const now = new Date(1000);
    const approved = decide(review(), 'approve', 'operator:ops', 'fine', now);
    expect(approved).toMatchObject({ status: 'approved', decidedBy: 'operator:ops', reason: 'fine', decidedAt: now, updatedAt: now });
    expect(decide(review(), 'reject', 'operator:ops', 'loop', now).status).toBe('rejected');
    expect(codeOf(() => decide(approved, 'reject', 'operator:ops', 'again', now))).toBe('invalid_state');
  });

  it('should validate decisions and reasons', () => {
    expect(parseDecision('approve')).toBe('approve');
    expect(parseDecision('reject')).toBe('reject');
    expect(codeOf(() => parseDecision('APPROVE'))).toBe('validation_failed');
    expect(codeOf(() => decisionReason(''))).toBe('validation_failed');
    expect(codeOf(() => decisionReason('x'.repeat(501)))).toBe('validation_failed');
    expect(decisionReason('ok')).toBe('ok');
    expect(rejectionCancelReason('circular')).toBe('resale lineage rejected: circular');
  });
});
