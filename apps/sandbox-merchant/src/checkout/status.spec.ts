import type { UcpMessage } from './checkout';
import { computeStatus, isOpen, isTerminal, needsEscalation, type StatusInput } from './status';

const now = 1_000_000;
const input = (over: Partial<StatusInput> = {}, session: Partial<StatusInput['session']> = {}): StatusInput => ({
  session: { state: 'open', buyer: { email: 'a@example.com' }, expiresAt: now + 1, ...session },
  cartMessages: [],
  lineCount: 1,
  total: 100,
  escalationThreshold: 1000,
  now,
  ...over,
});
const stockError: UcpMessage = { type: 'error', code: 'out_of_stock', content: 'x', severity: 'recoverable' };

describe('computeStatus', () => {
  it('ready_for_complete when the cart is valid and the buyer email known', () => {
    expect(computeStatus(input())).toEqual({ status: 'ready_for_complete', messages: [] });
  });

  it('incomplete on cart errors, a missing email or no line', () => {
    expect(computeStatus(input({ cartMessages: [stockError] })).status).toBe('incomplete');
    expect(computeStatus(input({}, { buyer: undefined })).messages).toEqual([expect.objectContaining({ code: 'missing', path: '$.buyer.email' })]);
    expect(computeStatus(input({ lineCount: 0 })).messages).toEqual([expect.objectContaining({ code: 'missing', path: '$.line_items' })]);
  });

  it('warnings do not block', () => {
    expect(computeStatus(input({ cartMessages: [{ type: 'warning', code: 'discount_code_invalid', content: 'x' }] })).status).toBe('ready_for_complete');
  });

  it('requires_escalation above the threshold unless that total was approved', () => {
    const high = computeStatus(input({ total: 1001 }));
    expect(high.status).toBe('requires_escalation');
    expect(high.messages).toEqual([expect.objectContaining({ type: 'error', severity: 'requires_buyer_review' })]);
    expect(computeStatus(input({ total: 1000 })).status).toBe('ready_for_complete');
    expect(computeStatus(input({ total: 1001 }, { approvedTotal: 1500 })).status).toBe('ready_for_complete');
    expect(computeStatus(input({ total: 1600 }, { approvedTotal: 1500 })).status).toBe('requires_escalation');
    // A cart that is not otherwise complete stays incomplete (the buyer approves a final cart).
    expect(computeStatus(input({ total: 5000, cartMessages: [stockError] })).status).toBe('incomplete');
  });

  it('stored states win; an expired open session is canceled', () => {
    for (const state of ['complete_in_progress', 'completed', 'canceled'] as const) {
      expect(computeStatus(input({}, { state })).status).toBe(state);
    }
    expect(computeStatus(input({ now: now + 2 })).status).toBe('canceled');
  });
});

describe('status helpers', () => {
  it('classifies terminal and open states', () => {
    expect(isTerminal('completed') && isTerminal('canceled')).toBe(true);
    expect(isTerminal('complete_in_progress')).toBe(false);
    expect(['incomplete', 'requires_escalation', 'ready_for_complete'].every((s) => isOpen(s as never))).toBe(true);
    expect(isOpen('complete_in_progress')).toBe(false);
    expect(needsEscalation(10, 5)).toBe(true);
    expect(needsEscalation(10, 5, 10)).toBe(false);
  });
});
