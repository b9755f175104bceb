import { DomainError } from '@exchange/platform';
import { holdLimit, mandateHeadroom, mandateLimit, remaining, requireBudgetCurrency, spend, type HoldBudgetSource, type MandateBudget, type ProxyBudget } from './budget';

const now = new Date('2026-11-25T12:00:00.000Z');
const agent = 'acme:agent:a';
const hold: HoldBudgetSource = { holdId: 'hld_1', agentId: agent, amount: 10_000_000n, currency: 'CREDIT', status: 'active', expiresAt: null, controller: 'agent' };
const mandate: MandateBudget = {
  mandateId: 'mdt_1',
  agentId: agent,
  status: 'active',
  currency: 'USD',
  perTransaction: 2_000_000n,
  totalLimit: 100_000_000n,
  spent: 60_000_000n,
  reserved: 15_000_000n,
  expiresAt: new Date('2026-12-01T00:00:00.000Z'),
};

function refusal(fn: () => unknown): { code: string; details: Record<string, unknown> | undefined } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return { code: (err as DomainError).code, details: (err as DomainError).details };
  }
  throw new Error('expected a refusal');
}

describe('proxy budgets', () => {
  it("should take an agent's own active hold's amount as the limit", () => {
    expect(holdLimit(hold, agent, now)).toBe(10_000_000n);
    expect(holdLimit({ ...hold, expiresAt: new Date(now.getTime() + 1) }, agent, now)).toBe(10_000_000n);
  });

  it('should refuse a hold that is not a usable budget, saying why', () => {
    expect(refusal(() => holdLimit(hold, 'acme:agent:b', now))).toMatchObject({ code: 'budget_unavailable', details: { reason: 'other_agent' } });
    expect(refusal(() => holdLimit({ ...hold, controller: 'market' }, agent, now))).toMatchObject({
      details: { reason: 'not_agent_controlled', controller: 'market' },
    });
    expect(refusal(() => holdLimit({ ...hold, status: 'released' }, agent, now))).toMatchObject({ details: { reason: 'not_active', status: 'released' } });
    expect(refusal(() => holdLimit({ ...hold, expiresAt: now }, agent, now))).toMatchObject({ details: { reason: 'expired' } });
  });

  it("should bound a mandate by what commerce has neither spent nor reserved", () => {
    expect(mandateLimit(mandate, { agentId: agent, cost: 2_000_000n, currency: null }, now)).toBe(25_000_000n);
    expect(mandateLimit(mandate, { agentId: agent, cost: 0n, currency: 'USD' }, now)).toBe(25_000_000n);
    expect(mandateHeadroom({ totalLimit: 10n, spent: 8n, reserved: 5n })).toBe(0n);
  });

  it('should refuse a mandate of another agent, not active, expired, in another currency or under its per-transaction limit', () => {
    const call = { agentId: agent, cost: 1n, currency: null };
    expect(refusal(() => mandateLimit(mandate, { ...call, agentId: 'acme:agent:b' }, now))).toMatchObject({ details: { reason: 'other_agent' } });
    expect(refusal(() => mandateLimit({ ...mandate, status: 'revoked' }, call, now))).toMatchObject({
      code: 'budget_unavailable',
      details: { reason: 'not_active', status: 'revoked' },
    });
    expect(refusal(() => mandateLimit({ ...mandate, expiresAt: now }, call, now))).toMatchObject({ details: { reason: 'expired' } });
    expect(refusal(() => mandateLimit(mandate, { ...call, currency: 'EUR' }, now))).toMatchObject({
      code: 'budget_currency_mismatch',
      details: { budget_currency: 'USD' },
    });
    expect(refusal(() => mandateLimit(mandate, { ...call, cost: 2_000_001n }, now))).toMatchObject({
      code: 'budget_exceeded',
      details: { reason: 'per_transaction', per_transaction: '2', cost: '2.000001', currency: 'USD' },
    });
  });

  it("should accept the budget's currency or none", () => {
    expect(() => requireBudgetCurrency('CREDIT', null)).not.toThrow();
    expect(() => requireBudgetCurrency('CREDIT', 'CREDIT')).not.toThrow();
    expect(refusal(() => requireBudgetCurrency('CREDIT', 'USD')).code).toBe('budget_currency_mismatch');
  });

  it('should spend up to the limit exactly, and refuse a cent more with the figures', () => {
    const budget: ProxyBudget = { kind: 'hold', ref: 'hld_1', currency: 'CREDIT', limit: 10n, spent: 7n, calls: 3n };
    expect(spend(budget, 3n)).toEqual({ ...budget, spent: 10n, calls: 4n });
    expect(spend(budget, 0n)).toEqual({ ...budget, spent: 7n, calls: 4n });
    expect(refusal(() => spend(budget, 4n))).toEqual({
      code: 'budget_exceeded',
      details: { limit: '0.00001', spent: '0.000007', remaining: '0.000003', cost: '0.000004', currency: 'CREDIT' },
    });
  });

  it('should never show a negative remainder', () => {
    expect(remaining({ limit: 5n, spent: 9n })).toBe(0n);
    expect(remaining({ limit: 9n, spent: 5n })).toBe(4n);
  });
});
