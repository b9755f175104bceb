import { errors, formatAmount } from '@exchange/platform';
import { AGENT_CONTROLLER } from '../holds/hold-control';
import type { BudgetKind } from './proxy-call';

// What a proxy call may spend (README.md "Gateway proxy"): an agent's own active hold, or a
// commerce mandate's limits as of the call. Pure rules; the repository supplies the rows, locked.

/** A budget's running state (proxy_budgets) with the limit it has now. */
export interface ProxyBudget {
  kind: BudgetKind;
  ref: string;
  currency: string;
  limit: bigint;
  spent: bigint;
  calls: bigint;
}

/** What is left; never below 0 (a mandate's limit can shrink under its proxy spend as commerce buys). */
export function remaining(b: Pick<ProxyBudget, 'limit' | 'spent'>): bigint {
  return b.limit > b.spent ? b.limit - b.spent : 0n;
}

/** The hold fields a hold budget depends on. */
export interface HoldBudgetSource {
  holdId: string;
  agentId: string;
  amount: bigint;
  currency: string;
  status: string;
  expiresAt: Date | null;
  controller: string;
}

/** A commerce mandate as the proxy reads it (amounts in micro-units). */
export interface MandateBudget {
  mandateId: string;
  agentId: string;
  /** Commerce's wire name: active, paused, revoked, expired, exhausted. */
  status: string;
  currency: string;
  perTransaction: bigint;
  totalLimit: bigint;
  /** Commerce's completed purchases and the completes in flight under the mandate. */
  spent: bigint;
  reserved: bigint;
  expiresAt: Date | null;
}

export type UnavailableReason = 'other_agent' | 'not_active' | 'expired' | 'not_agent_controlled';

export const budgetErrors = {
  notUsable: (kind: BudgetKind, ref: string, reason: UnavailableReason, extra: Record<string, string> = {}) =>
    errors.failedPrecondition('budget_unavailable', `${kind} ${ref} cannot be a proxy budget (${reason.replace(/_/g, ' ')})`, {
      reason,
      [`${kind}_id`]: ref,
      ...extra,
    }),
  currencyMismatch: (budgetCurrency: string) =>
    errors.invalidArgument('budget_currency_mismatch', `currency must be the budget's ${budgetCurrency}`, { budget_currency: budgetCurrency }),
  exceeded: (b: Pick<ProxyBudget, 'limit' | 'spent' | 'currency'>, cost: bigint) =>
    errors.failedPrecondition('budget_exceeded', `cost ${formatAmount(cost)} ${b.currency} is over the budget's remaining ${formatAmount(remaining(b))}`, {
      limit: formatAmount(b.limit),
      spent: formatAmount(b.spent),
      remaining: formatAmount(remaining(b)),
      cost: formatAmount(cost),
      currency: b.currency,
    }),
  perTransactionExceeded: (m: Pick<MandateBudget, 'perTransaction' | 'currency'>, cost: bigint) =>
    errors.failedPrecondition('budget_exceeded', `cost ${formatAmount(cost)} ${m.currency} is over the mandate's per-transaction limit ${formatAmount(m.perTransaction)}`, {
      reason: 'per_transaction',
      per_transaction: formatAmount(m.perTransaction),
      cost: formatAmount(cost),
      currency: m.currency,
    }),
};

/**
 * A hold spends as a budget only while it is the agent's own (controller "agent") and active and
 * unexpired; its limit is its amount. Another agent's hold is refused, not hidden: the caller
 * named it, and the refusal says nothing about its amount.
 */
export function holdLimit(hold: HoldBudgetSource, agentId: string, now: Date): bigint {
  const refuse = (reason: UnavailableReason, extra?: Record<string, string>) => budgetErrors.notUsable('hold', hold.holdId, reason, extra);
  if (hold.agentId !== agentId) throw refuse('other_agent');
  if (hold.controller !== AGENT_CONTROLLER) throw refuse('not_agent_controlled', { controller: hold.controller });
  if (hold.status !== 'active') throw refuse('not_active', { status: hold.status });
  if (hold.expiresAt !== null && hold.expiresAt.getTime() <= now.getTime()) throw refuse('expired', { expires_at: hold.expiresAt.toISOString() });
  return hold.amount;
}

/**
 * A mandate spends as a budget while it is the agent's, active and unexpired; a call in another
 * currency, or over its per-transaction limit, is refused outright; the limit is what commerce has
 * not spent or reserved under it now (commerce's own checks do not see the proxy's spend).
 */
export function mandateLimit(m: MandateBudget, call: { agentId: string; cost: bigint; currency: string | null }, now: Date): bigint {
  const { agentId, cost } = call;
  const refuse = (reason: UnavailableReason, extra?: Record<string, string>) => budgetErrors.notUsable('mandate', m.mandateId, reason, extra);
  if (m.agentId !== agentId) throw refuse('other_agent');
  if (m.status !== 'active') throw refuse('not_active', { status: m.status });
  if (m.expiresAt !== null && m.expiresAt.getTime() <= now.getTime()) throw refuse('expired', { expires_at: m.expiresAt.toISOString() });
  requireBudgetCurrency(m.currency, call.currency);
  if (cost > m.perTransaction) throw budgetErrors.perTransactionExceeded(m, cost);
  return mandateHeadroom(m);
}

/** What commerce has neither spent nor reserved under the mandate (never below 0). */
export function mandateHeadroom(m: Pick<MandateBudget, 'totalLimit' | 'spent' | 'reserved'>): bigint {
  const left = m.totalLimit - m.spent - m.reserved;
  return left > 0n ? left : 0n;
}

/** A call names its budget's currency or none. */
export function requireBudgetCurrency(budgetCurrency: string, requested: string | null): void {
  if (requested !== null && requested !== budgetCurrency) throw budgetErrors.currencyMismatch(budgetCurrency);
}

/** The budget after the call, if the call fits: spent + cost ≤ limit; otherwise budget_exceeded. */
export function spend(budget: ProxyBudget, cost: bigint): ProxyBudget {
  if (budget.spent + cost > budget.limit) throw budgetErrors.exceeded(budget, cost);
  return { ...budget, spent: budget.spent + cost, calls: budget.calls + 1n };
}
