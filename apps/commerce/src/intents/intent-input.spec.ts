import { DomainError } from '@exchange/platform';
import { MAX_INTENT_LIFETIME_MS, requireIntentCreator, validateCreateIntent, type CreateIntentInput } from './intent-input';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const input: CreateIntentInput = {
  agentId: 'agt_buyer',
  description: 'Red roses for the office, under 100 USD',
  merchants: ['sandbox-merchant.local'],
  skus: ['bouquet_roses'],
  budget: { amount: '100', currency: 'USD' },
  requiresRefundability: false,
  expiresAt: new Date(NOW.getTime() + 86_400_000),
};

function refusal(fn: () => unknown): { code: string; field?: unknown } {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, field: err.details?.['field'] };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('validateCreateIntent', () => {
  it('should keep the fields with the budget in micro-units and lists de-duplicated', () => {
    expect(validateCreateIntent({ ...input, skus: ['a', 'a', 'b'] }, NOW)).toEqual({
      agentId: 'agt_buyer',
      description: input.description,
      merchants: ['sandbox-merchant.local'],
      skus: ['a', 'b'],
      budget: 100_000_000n,
      currency: 'USD',
      requiresRefundability: false,
      expiresAt: input.expiresAt,
    });
  });

  it('should accept a description of exactly 2000 characters (code points) and empty lists', () => {
    const draft = validateCreateIntent({ ...input, description: '🌹'.repeat(2000), merchants: [], skus: [] }, NOW);
    expect(draft.merchants).toEqual([]);
  });

  it.each<[string, Partial<CreateIntentInput>, string, string | undefined]>([
    ['no agent_id', { agentId: '' }, 'validation_failed', 'agent_id'],
    ['an empty description', { description: '' }, 'validation_failed', 'description'],
    ['a blank description', { description: '   ' }, 'validation_failed', 'description'],
    ['a description of 2001 characters', { description: 'x'.repeat(2001) }, 'validation_failed', 'description'],
    ['a merchant URL', { merchants: ['https://shop.example'] }, 'invalid_merchant_domain', 'merchants'],
    ['101 skus', { skus: Array.from({ length: 101 }, (_, i) => `s${i}`) }, 'validation_failed', 'skus'],
    ['an empty sku', { skus: [''] }, 'validation_failed', 'skus'],
    ['no budget', { budget: undefined }, 'validation_failed', 'budget'],
    ['a zero budget', { budget: { amount: '0', currency: 'USD' } }, 'invalid_amount', undefined],
    ['a budget that is not a number', { budget: { amount: 'ten', currency: 'USD' } }, 'invalid_amount', undefined],
    ['an unknown currency', { budget: { amount: '1', currency: 'XXX' } }, 'unsupported_currency', undefined],
    ['no expiry', { expiresAt: undefined }, 'validation_failed', 'expires_at'],
    ['an expiry now', { expiresAt: NOW }, 'validation_failed', 'expires_at'],
    ['an expiry past 366 days', { expiresAt: new Date(NOW.getTime() + MAX_INTENT_LIFETIME_MS + 1) }, 'validation_failed', 'expires_at'],
  ])('should refuse %s', (_name, over, code, field) => {
    expect(refusal(() => validateCreateIntent({ ...input, ...over }, NOW))).toEqual({ code, field });
  });
});

describe('requireIntentCreator', () => {
  it('should let the agent itself and the operator create', () => {
    expect(() => requireIntentCreator('agt_buyer', { agentId: 'agt_buyer', operator: false })).not.toThrow();
    expect(() => requireIntentCreator('agt_buyer', { agentId: null, operator: true })).not.toThrow();
  });

  it('should refuse another agent or no caller', () => {
    expect(refusal(() => requireIntentCreator('agt_buyer', { agentId: 'agt_other', operator: false })).code).toBe('acting_agent_mismatch');
    expect(refusal(() => requireIntentCreator('agt_buyer', { agentId: null, operator: false })).code).toBe('acting_agent_mismatch');
  });
});
