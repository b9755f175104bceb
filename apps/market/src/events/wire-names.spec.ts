import { marketV1, marketV1Insights, marketV1Integrity } from '@exchange/proto';
import { optionalEnum, requiredEnum } from '../grpc/handler-kit';
import { resolveWindow } from '../insights/insights.mapper';
import { stateFromProto } from '../integrity/integrity.mapper';
import { integrityState } from '../integrity/integrity.events';
import { reviewStatusFromProto } from './governance.encode';
import * as enc from './market.encode';

// The generated wire tables replaced hand-written ones: the same names ⇄ the same numbers, and the
// request readers answer UNSPECIFIED and unknown numbers as before.

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    const { code, message, details } = e as { code?: string; message: string; details?: unknown };
    return { code, message, details };
  }
  throw new Error('expected a throw');
};

describe('market enums through the generated wire tables', () => {
  it('map the same names to the same proto values as the former hand tables', () => {
    const S = marketV1.ContractStatus;
    expect(['open', 'awarded', 'delivered', 'accepted', 'settled', 'disputed', 'refunded', 'split', 'cancelled', 'expired', 'corrected'].map((n) => enc.contractStatus.fromWire(n))).toEqual([
      S.CONTRACT_STATUS_OPEN, S.CONTRACT_STATUS_AWARDED, S.CONTRACT_STATUS_DELIVERED, S.CONTRACT_STATUS_ACCEPTED, S.CONTRACT_STATUS_SETTLED, S.CONTRACT_STATUS_DISPUTED,
      S.CONTRACT_STATUS_REFUNDED, S.CONTRACT_STATUS_SPLIT, S.CONTRACT_STATUS_CANCELLED, S.CONTRACT_STATUS_EXPIRED, S.CONTRACT_STATUS_CORRECTED,
    ]);
    expect(enc.verificationMode.toProto('auto')).toBe(marketV1.VerificationMode.VERIFICATION_MODE_AUTO);
    expect(enc.escrowStatus.toProto('none')).toBe(marketV1.EscrowStatus.ESCROW_STATUS_NONE);
    expect(enc.offerStatus.toProto('withdrawn')).toBe(marketV1.OfferStatus.OFFER_STATUS_WITHDRAWN);
    expect(enc.resultStatus.toProto('rejected')).toBe(marketV1.ResultStatus.RESULT_STATUS_REJECTED);
    expect(enc.disputeStatus.toProto('resolved')).toBe(marketV1.DisputeStatus.DISPUTE_STATUS_RESOLVED);
    expect(enc.disputeOutcome.toProto('split')).toBe(marketV1.DisputeOutcome.DISPUTE_OUTCOME_SPLIT);
    expect(enc.verdict.toProto('fail')).toBe(marketV1.Verdict.VERDICT_FAIL);
    expect(enc.metricsWindow.names).toEqual(['all', '1h', '1d', '7d']);
    expect(integrityState.names).toEqual(['normal', 'elevated', 'restricted', 'halted']);
  });

  it('request enums: UNSPECIFIED and unknown numbers answer 400 naming the field', () => {
    expect(requiredEnum(enc.verdict, marketV1.Verdict.VERDICT_PASS, 'verdict')).toBe('pass');
    for (const v of [0, 99]) {
      expect(errorOf(() => requiredEnum(enc.verdict, v, 'verdict'))).toEqual({ code: 'validation_failed', message: 'verdict is required', details: { field: 'verdict' } });
    }
    expect(optionalEnum(enc.offerStatus, undefined, 'status')).toBeUndefined();
    expect(optionalEnum(enc.offerStatus, 0, 'status')).toBeUndefined();
    expect(optionalEnum(enc.offerStatus, marketV1.OfferStatus.OFFER_STATUS_AWARDED, 'status')).toBe('awarded');
    expect(errorOf(() => optionalEnum(enc.offerStatus, 99, 'status'))).toEqual({ code: 'validation_failed', message: 'status is not a known value', details: { field: 'status' } });
  });

  it('resale review filter: UNSPECIFIED → none, unknown → null', () => {
    const RS = marketV1.ResaleReviewStatus;
    expect(reviewStatusFromProto(undefined)).toBeUndefined();
    expect(reviewStatusFromProto(RS.RESALE_REVIEW_STATUS_UNSPECIFIED)).toBeUndefined();
    expect(reviewStatusFromProto(RS.RESALE_REVIEW_STATUS_APPROVED)).toBe('approved');
    expect(reviewStatusFromProto(99 as marketV1.ResaleReviewStatus)).toBeNull();
  });

  it('insight window: UNSPECIFIED means all; unknown or not allowed → 400 listing the allowed ones', () => {
    const W = marketV1Insights.InsightWindow;
    expect(resolveWindow(W.INSIGHT_WINDOW_UNSPECIFIED, ['all', '1h'])).toBe('all');
    expect(resolveWindow(W.INSIGHT_WINDOW_30D, ['all', '30d'])).toBe('30d');
    for (const v of [W.INSIGHT_WINDOW_30D, 99 as marketV1Insights.InsightWindow]) {
      expect(errorOf(() => resolveWindow(v, ['all', '1h', '1d', '7d']))).toEqual({
        code: 'validation_failed',
        message: 'window must be one of all, 1h, 1d, 7d',
        details: { field: 'window' },
      });
    }
  });

  it('integrity state: UNSPECIFIED and unknown → 400 naming state', () => {
    expect(stateFromProto(marketV1Integrity.IntegrityState.INTEGRITY_STATE_HALTED)).toBe('halted');
    for (const v of [0, 99] as marketV1Integrity.IntegrityState[]) {
      expect(errorOf(() => stateFromProto(v))).toEqual({
        code: 'validation_failed',
        message: 'state must be one of normal, elevated, restricted, halted',
        details: { field: 'state' },
      });
    }
  });
});
