import type { MerchantOutcome } from '../domain/merchant.ports';
import type { UcpCheckout } from '../domain/ucp-types';
import { judgeComplete, nextStep, orderIdOf, spendLines } from './purchase-steps';

const checkout = (status: UcpCheckout['status'], extra: Partial<UcpCheckout> = {}): UcpCheckout => ({ id: 'co_1', status, currency: 'USD', totals: [], line_items: [], ...extra });

describe('nextStep', () => {
  it('a buyer complete starts an attempt from none or released; recovery never does', () => {
    for (const stage of ['none', 'released'] as const) {
      expect(nextStep({ paymentStage: stage, failureReason: null }, false)).toBe('reserve');
      expect(nextStep({ paymentStage: stage, failureReason: 'payment_failed' }, true)).toBe('stopped');
    }
  });

  it('moves on from each in-flight stage', () => {
    expect(nextStep({ paymentStage: 'reserved', failureReason: null }, true)).toBe('hold');
    expect(nextStep({ paymentStage: 'hold_placed', failureReason: null }, true)).toBe('merchant');
    expect(nextStep({ paymentStage: 'merchant_completed', failureReason: null }, false)).toBe('settle');
    expect(nextStep({ paymentStage: 'settled', failureReason: null }, false)).toBe('done');
  });

  it('a hold with a recorded merchant failure is released, never completed again', () => {
    expect(nextStep({ paymentStage: 'hold_placed', failureReason: 'merchant_timeout' }, true)).toBe('release');
    expect(nextStep({ paymentStage: 'hold_placed', failureReason: 'payment_failed' }, false)).toBe('release');
  });
});

describe('judgeComplete', () => {
  const of = (outcome: MerchantOutcome) => judgeComplete(outcome);

  it('completed and complete_in_progress checkouts', () => {
    expect(of({ kind: 'checkout', checkout: checkout('completed'), httpStatus: 200 }).kind).toBe('completed');
    expect(of({ kind: 'checkout', checkout: checkout('complete_in_progress'), httpStatus: 200 }).kind).toBe('in_progress');
  });

  it('a checkout in any other status is a refusal naming its error codes (declined payment)', () => {
    const messages = [{ type: 'error' as const, code: 'payment_failed', content: 'declined' }, { type: 'warning' as const, code: 'low_stock', content: 'x' }];
    expect(of({ kind: 'checkout', checkout: checkout('ready_for_complete', { messages }), httpStatus: 200 })).toMatchObject({
      kind: 'refused', code: 'checkout_not_ready', reason: 'payment_failed', messages,
    });
    expect(of({ kind: 'checkout', checkout: checkout('canceled'), httpStatus: 200 })).toMatchObject({ kind: 'refused', reason: 'status canceled' });
  });

  it('business and protocol errors are definite refusals', () => {
    expect(of({ kind: 'business_error', messages: [{ type: 'error', code: 'out_of_stock', content: 'none left' }], httpStatus: 200 })).toMatchObject({ kind: 'refused', code: 'checkout_not_ready', reason: 'out_of_stock' });
    expect(of({ kind: 'protocol_error', reason: 'HTTP 418' })).toMatchObject({ kind: 'refused', code: 'merchant_protocol_error', reason: 'merchant_protocol_error: HTTP 418' });
  });

  it('no answer is uncertain (the merchant may have completed)', () => {
    expect(of({ kind: 'timeout' })).toEqual({ kind: 'uncertain', code: 'merchant_timeout', reason: 'merchant_timeout' });
    expect(of({ kind: 'unavailable', reason: 'HTTP 503' })).toEqual({ kind: 'uncertain', code: 'merchant_unavailable', reason: 'merchant_unavailable: HTTP 503' });
  });
});

describe('purchase shapes', () => {
  it('spend lines take sku = item.id and a string category only', () => {
    expect(spendLines({ line_items: [{ item: { id: 'roses', category: 'flowers' }, quantity: 1 }, { item: { id: 'pot', category: 7 }, quantity: 2 }] })).toEqual([
      { sku: 'roses', category: 'flowers' },
      { sku: 'pot', category: null },
    ]);
    expect(spendLines({})).toEqual([]);
  });

  it('order id of a completed checkout', () => {
    expect(orderIdOf(checkout('completed', { order: { id: 'ord_1' } }))).toBe('ord_1');
    expect(orderIdOf(checkout('completed'))).toBeNull();
  });
});
