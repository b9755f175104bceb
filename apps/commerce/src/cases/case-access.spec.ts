import { DomainError } from '@exchange/platform';
import { requireBuyer, requireOperator, requireParty } from './case-access';

const codeOf = (fn: () => void): string | null => {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as DomainError).code;
  }
};
const buyer = { agentId: 'b', operator: false };
const other = { agentId: 'o', operator: false };
const operator = { agentId: null, operator: true };

describe('case access', () => {
  it('should let only the buyer open', () => {
    expect(codeOf(() => requireBuyer('b', 'deal_1', buyer))).toBeNull();
    expect(codeOf(() => requireBuyer('b', 'deal_1', other))).toBe('not_deal_buyer');
    expect(codeOf(() => requireBuyer('b', 'deal_1', operator))).toBe('not_deal_buyer');
    expect(codeOf(() => requireBuyer('b', 'deal_1', { agentId: null, operator: false }))).toBe('not_deal_buyer');
  });

  it('should let the buyer and the operator read, nobody else', () => {
    expect(codeOf(() => requireParty('b', 'deal_1', buyer))).toBeNull();
    expect(codeOf(() => requireParty('b', 'deal_1', operator))).toBeNull();
    expect(codeOf(() => requireParty('b', 'deal_1', other))).toBe('not_deal_buyer');
  });

  it('should leave status moves to the operator', () => {
    expect(codeOf(() => requireOperator(operator))).toBeNull();
    expect(codeOf(() => requireOperator(buyer))).toBe('operator_required');
  });
});
