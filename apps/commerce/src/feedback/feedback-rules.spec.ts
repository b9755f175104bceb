import { DomainError } from '@exchange/platform';
import { requireDealBuyer, validateFeedback } from './feedback-rules';

function codeOf(fn: () => unknown): { code: string; field?: unknown } | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, field: err.details?.['field'] };
    throw err;
  }
}

describe('validateFeedback', () => {
  it('should accept ratings 1 and 5, an empty comment and one of 2000 characters', () => {
    expect(codeOf(() => validateFeedback({ dealId: 'deal_1', rating: 1, comment: '' }))).toBeNull();
    expect(codeOf(() => validateFeedback({ dealId: 'deal_1', rating: 5, comment: 'é'.repeat(2000) }))).toBeNull();
  });

  it.each([
    ['rating 0', { rating: 0 }, 'rating'],
    ['rating 6', { rating: 6 }, 'rating'],
    ['rating 4.5', { rating: 4.5 }, 'rating'],
    ['a comment of 2001 characters', { comment: 'x'.repeat(2001) }, 'comment'],
    ['no deal_id', { dealId: '' }, 'deal_id'],
  ])('should refuse %s (400 naming the field)', (_name, over, field) => {
    expect(codeOf(() => validateFeedback({ dealId: 'deal_1', rating: 3, comment: '', ...over }))).toEqual({ code: 'validation_failed', field });
  });
});

describe('requireDealBuyer', () => {
  const deal = { dealId: 'deal_1', buyerAgentId: 'agt_buyer', merchantDomain: 'shop.example' };

  it('should let the buyer record feedback', () => {
    expect(codeOf(() => requireDealBuyer(deal, { agentId: 'agt_buyer', operator: false }))).toBeNull();
  });

  it('should refuse another agent and the operator', () => {
    expect(codeOf(() => requireDealBuyer(deal, { agentId: 'agt_other', operator: false }))?.code).toBe('not_deal_buyer');
    expect(codeOf(() => requireDealBuyer(deal, { agentId: null, operator: true }))?.code).toBe('not_deal_buyer');
  });
});
