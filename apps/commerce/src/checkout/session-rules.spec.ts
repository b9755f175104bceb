import type { UcpCheckout } from '../domain/ucp-types';
import { assertBuyer, assertModifiable, assertReader, completeDecision, defaultPayment, merchantKey, spendAttemptOf, utcMidnight } from './session-rules';
import type { CheckoutSessionRecord } from './session.model';

const checkout: UcpCheckout = {
  id: 'chk_1',
  status: 'ready_for_complete',
  currency: 'USD',
  totals: [],
  line_items: [{ item: { id: 'roses', category: 'flowers' }, quantity: 1 }, { item: { id: 'pot', category: 7 }, quantity: 1 }],
  ucp: { payment_handlers: { 'local.sandbox_merchant.token': [{ id: 'mock_payment_handler', version: '2026-04-08' }] } },
  messages: [{ type: 'error', code: 'missing', content: 'email', severity: 'recoverable' }],
};

const session = (over: Partial<CheckoutSessionRecord> = {}) =>
  ({ commerceSessionId: 'cs_1', buyerAgentId: 'agent:b', status: 'ready_for_complete', paymentStage: 'none', mode: 'live', approval: 'not_required', approvalReason: null, merchantCheckout: checkout, ...over }) as CheckoutSessionRecord;

const buyer = { agentId: 'agent:b', operator: false };
const other = { agentId: 'agent:x', operator: false };
const operator = { agentId: '', operator: true };
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return 'none';
};

describe('session rules', () => {
  it('should let only the buyer change a session and the buyer or operator read it', () => {
    expect(code(() => assertBuyer(session(), buyer))).toBe('none');
    expect(code(() => assertBuyer(session(), other))).toBe('not_session_buyer');
    expect(code(() => assertBuyer(session(), operator))).toBe('not_session_buyer');
    expect(code(() => assertReader(session(), operator))).toBe('none');
    expect(code(() => assertReader(session(), other))).toBe('not_session_buyer');
  });

  it('should refuse changes to terminal sessions and to sessions being paid', () => {
    expect(code(() => assertModifiable(session(), 'updated'))).toBe('none');
    expect(code(() => assertModifiable(session({ paymentStage: 'released' }), 'updated'))).toBe('none');
    expect(code(() => assertModifiable(session({ status: 'completed' }), 'updated'))).toBe('invalid_state');
    expect(code(() => assertModifiable(session({ status: 'canceled' }), 'canceled'))).toBe('invalid_state');
    for (const stage of ['reserved', 'hold_placed', 'merchant_completed'] as const) {
      expect(code(() => assertModifiable(session({ paymentStage: stage }), 'updated'))).toBe('invalid_state');
    }
  });

  it('should decide complete in the documented order', () => {
    expect(completeDecision(session())).toBe('proceed');
    expect(completeDecision(session({ status: 'completed' }))).toBe('replay');
    expect(completeDecision(session({ status: 'complete_in_progress', paymentStage: 'hold_placed' }))).toBe('proceed');
    expect(code(() => completeDecision(session({ mode: 'shadow' })))).toBe('invalid_state');
    expect(code(() => completeDecision(session({ status: 'canceled' })))).toBe('invalid_state');
    expect(code(() => completeDecision(session({ approval: 'pending', approvalReason: 'manual_mode' })))).toBe('approval_required');
    expect(code(() => completeDecision(session({ approval: 'denied' })))).toBe('approval_denied');
    expect(code(() => completeDecision(session({ status: 'incomplete' })))).toBe('checkout_not_ready');
    expect(code(() => completeDecision(session({ approval: 'approved' })))).toBe('none');
  });

  it('should give the pending reason and the merchant messages in details', () => {
    expect(() => completeDecision(session({ approval: 'pending', approvalReason: 'step_up_threshold' }))).toThrow(expect.objectContaining({ details: { reason: 'step_up_threshold' } }));
    expect(() => completeDecision(session({ status: 'requires_escalation' }))).toThrow(expect.objectContaining({ details: { status: 'requires_escalation', messages: checkout.messages } }));
  });

  it('should ask the mandate about skus and string categories', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    expect(spendAttemptOf({ buyerAgentId: 'agent:b', merchantDomain: 'm.example' }, checkout, 5n, { knownMerchant: true, spentToday: 3n, now })).toEqual({
      buyerAgentId: 'agent:b',
      merchantDomain: 'm.example',
      currency: 'USD',
      total: 5n,
      lines: [{ sku: 'roses', category: 'flowers' }, { sku: 'pot', category: null }],
      now,
      knownMerchant: true,
      spentToday: 3n,
    });
  });

  it('should count the day from UTC midnight', () => {
    expect(utcMidnight(new Date('2026-11-25T23:59:59.999Z')).toISOString()).toBe('2026-11-25T00:00:00.000Z');
  });

  it('should derive stable UUID-shaped merchant keys per step', () => {
    const k = merchantKey('cs_1', 'update', 'key-1');
    expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(merchantKey('cs_1', 'update', 'key-1')).toBe(k);
    expect(merchantKey('cs_1', 'update', 'key-2')).not.toBe(k);
  });

  it("should default the payment to the merchant's first handler with the sandbox test token", () => {
    expect(defaultPayment(checkout)).toEqual({
      instruments: [{ id: 'exchange_sandbox_instrument', handler_id: 'mock_payment_handler', type: 'card', selected: true, credential: { type: 'token', token: 'success_token' } }],
    });
    expect(defaultPayment({ ...checkout, ucp: { payment_handlers: {} } })).toBeNull();
  });
});
