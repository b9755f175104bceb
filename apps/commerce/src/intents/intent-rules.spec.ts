import { DomainError } from '@exchange/platform';
import type { IntentRecord } from './intent.model';
import { checkIntentBeforeMerchant, checkIntentSession, type IntentSession } from './intent-rules';

const NOW = new Date('2026-11-25T12:00:00.000Z');

const intent: IntentRecord = {
  intentId: 'int_1',
  agentId: 'agt_buyer',
  description: 'red roses for the office',
  merchants: ['shop.example'],
  skus: ['bouquet_roses', 'vase'],
  budget: 100_000_000n,
  currency: 'USD',
  requiresRefundability: true,
  expiresAt: new Date('2026-12-01T00:00:00.000Z'),
  createdAt: NOW,
};

const ok: IntentSession = {
  buyerAgentId: 'agt_buyer',
  merchantDomain: 'shop.example',
  skus: ['bouquet_roses'],
  merchantReportsOrders: true,
  now: NOW,
  currency: 'USD',
  total: 70_000_000n,
};

function codeOf(fn: () => void): { code: string; details: unknown } | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { code: err.code, details: err.details };
  }
}

describe('intent rules', () => {
  it('should pass a session inside every rule, a total equal to the budget included', () => {
    expect(codeOf(() => checkIntentSession(intent, ok))).toBeNull();
    expect(codeOf(() => checkIntentSession(intent, { ...ok, total: intent.budget }))).toBeNull();
  });

  it('should treat empty merchants and skus as any', () => {
    const any = { ...intent, merchants: [], skus: [], requiresRefundability: false };
    expect(codeOf(() => checkIntentSession(any, { ...ok, merchantDomain: 'other.example', skus: ['anything'], merchantReportsOrders: false }))).toBeNull();
  });

  it.each<[string, Partial<IntentSession>, string]>([
    ['another agent', { buyerAgentId: 'agt_other' }, 'not_intent_agent'],
    ['the expiry instant', { now: intent.expiresAt }, 'intent_expired'],
    ['a merchant outside the list', { merchantDomain: 'other.example' }, 'intent_merchant_not_allowed'],
    ['a merchant without order reporting', { merchantReportsOrders: false }, 'intent_refundability_unmet'],
    ['a sku outside the list', { skus: ['bouquet_roses', 'tulips'] }, 'intent_sku_not_allowed'],
    ['another currency', { currency: 'EUR' }, 'intent_currency_mismatch'],
    ['a total one micro-unit over the budget', { total: intent.budget + 1n }, 'intent_budget_exceeded'],
  ])('should refuse %s', (_name, over, code) => {
    expect(codeOf(() => checkIntentSession(intent, { ...ok, ...over }))?.code).toBe(code);
  });

  it('should name the first broken rule (agent before expiry before merchant)', () => {
    expect(codeOf(() => checkIntentSession(intent, { ...ok, buyerAgentId: 'x', now: intent.expiresAt, merchantDomain: 'other.example' }))?.code).toBe('not_intent_agent');
    expect(codeOf(() => checkIntentSession(intent, { ...ok, now: intent.expiresAt, merchantDomain: 'other.example' }))?.code).toBe('intent_expired');
  });

  it('should name the sku and the amounts it refused', () => {
    expect(codeOf(() => checkIntentSession(intent, { ...ok, skus: ['tulips'] }))?.details).toEqual({ sku: 'tulips' });
    expect(codeOf(() => checkIntentSession(intent, { ...ok, total: 100_500_000n }))?.details).toEqual({ total: '100.5', budget: '100', currency: 'USD' });
  });

  it('should compare merchant domains case-insensitively', () => {
    expect(codeOf(() => checkIntentSession(intent, { ...ok, merchantDomain: 'Shop.Example' }))).toBeNull();
  });

  it('should check before the merchant neither currency nor budget (no merchant answer yet)', () => {
    const request = { buyerAgentId: 'agt_buyer', merchantDomain: 'shop.example', skus: ['vase'], merchantReportsOrders: true, now: NOW };
    expect(codeOf(() => checkIntentBeforeMerchant(intent, request))).toBeNull();
    expect(codeOf(() => checkIntentBeforeMerchant(intent, { ...request, skus: ['tulips'] }))?.code).toBe('intent_sku_not_allowed');
  });
});
