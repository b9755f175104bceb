import { errors, formatAmount } from '@exchange/platform';
import type { ApprovalNeed, MandateRecord, MandateStatus, SpendAttempt } from './mandate.model';

// The spend rules every checkout create/update/complete runs before anything reaches the merchant
// (DESIGN §4 "Commerce"). Pure: the caller loads the mandate (FOR UPDATE when it will reserve) and
// the buyer's history, and records the outcome as evidence.

type StatusView = Pick<MandateRecord, 'status' | 'expiresAt' | 'spent' | 'limits'>;

/**
 * The status a reader sees: revoked stays revoked; a mandate whose spend reached its total is
 * exhausted; past expires_at it is expired; otherwise the stored active/paused. The list filter
 * (mandates.repo.ts) encodes the same precedence in SQL.
 */
export function effectiveStatus(m: StatusView, now: Date): MandateStatus {
  if (m.status === 'revoked') return 'revoked';
  if (m.status === 'exhausted' || m.spent >= m.limits.total) return 'exhausted';
  if (m.expiresAt.getTime() <= now.getTime()) return 'expired';
  return m.status;
}

type Standing = Pick<SpendAttempt, 'buyerAgentId' | 'merchantDomain' | 'now'>;

/** The mandate is the buyer's and may spend now (not paused, revoked, exhausted or expired). */
function requireStanding(m: MandateRecord, a: Standing): void {
  if (a.buyerAgentId !== m.agentId) {
    throw errors.permissionDenied('mandate_not_for_agent', `mandate ${m.mandateId} was not granted to ${a.buyerAgentId}`, { mandate_id: m.mandateId });
  }
  const status = effectiveStatus(m, a.now);
  if (status === 'paused' || status === 'revoked' || status === 'exhausted') {
    throw errors.permissionDenied('mandate_inactive', `mandate ${m.mandateId} is ${status}`, { mandate_id: m.mandateId, status });
  }
  if (status === 'expired') {
    throw errors.permissionDenied('mandate_expired', `mandate ${m.mandateId} expired at ${m.expiresAt.toISOString()}`, {
      mandate_id: m.mandateId,
      expires_at: m.expiresAt.toISOString(),
    });
  }
}

function requireMerchantInScope(m: MandateRecord, merchantDomain: string): void {
  const domain = merchantDomain.toLowerCase();
  if (m.scope.merchants.length > 0 && !m.scope.merchants.some((d) => d.toLowerCase() === domain)) {
    throw errors.permissionDenied('mandate_merchant_not_allowed', `merchant ${domain} is outside the mandate's scope`, { merchant_domain: domain });
  }
}

/**
 * The rules that need no merchant answer (buyer, status, expiry, merchant scope), run before a
 * checkout is opened at the merchant so a refused create leaves nothing there either.
 */
export function checkBeforeMerchant(m: MandateRecord, a: Standing): void {
  requireStanding(m, a);
  requireMerchantInScope(m, a.merchantDomain);
}

/** The mandate's scope and limits allow this spend (else 403 with the `mandate_*` code naming the first rule broken). */
function checkRules(m: MandateRecord, a: SpendAttempt): void {
  requireStanding(m, a);
  if (a.currency !== m.limits.currency) {
    throw errors.permissionDenied('mandate_currency_mismatch', `the checkout is in ${a.currency}, the mandate in ${m.limits.currency}`, {
      currency: a.currency,
      mandate_currency: m.limits.currency,
    });
  }
  requireMerchantInScope(m, a.merchantDomain);
  if (m.scope.skus.length > 0) {
    const outside = a.lines.find((l) => !m.scope.skus.includes(l.sku));
    if (outside) throw errors.permissionDenied('mandate_sku_not_allowed', `sku ${outside.sku} is outside the mandate's scope`, { sku: outside.sku });
  }
  if (m.scope.categories.length > 0) {
    // Fail closed: a line the merchant gives no category for cannot be shown to be in scope.
    const outside = a.lines.find((l) => l.category === null || !m.scope.categories.includes(l.category));
    if (outside) {
      throw errors.permissionDenied('mandate_category_not_allowed', `the category of sku ${outside.sku} is outside the mandate's scope`, {
        sku: outside.sku,
        category: outside.category,
      });
    }
  }
  if (a.total > m.limits.perTransaction) {
    throw errors.permissionDenied('mandate_per_transaction_exceeded', 'the checkout total is above the per-transaction limit', {
      total: formatAmount(a.total),
      per_transaction: formatAmount(m.limits.perTransaction),
    });
  }
  if (m.spent + m.reserved + a.total > m.limits.total) {
    throw errors.permissionDenied('mandate_total_exceeded', "this total would pass the mandate's total limit", {
      total: formatAmount(a.total),
      spent: formatAmount(m.spent),
      reserved: formatAmount(m.reserved),
      total_limit: formatAmount(m.limits.total),
    });
  }
  const daily = m.autonomy.dailyLimit;
  if (daily !== null && a.spentToday + a.total > daily) {
    throw errors.permissionDenied('mandate_daily_limit_exceeded', "this total would pass the mandate's daily limit", {
      total: formatAmount(a.total),
      spent_today: formatAmount(a.spentToday),
      daily_limit: formatAmount(daily),
    });
  }
}

/** Whether the signer must approve this spend under the mandate's autonomy settings. */
function approvalNeed(m: MandateRecord, a: SpendAttempt): ApprovalNeed {
  const autonomy = m.autonomy;
  if (autonomy.mode === 'manual') return 'manual_mode';
  const threshold = autonomy.stepUpThreshold;
  if (autonomy.mode === 'step_up' && threshold !== null && threshold.currency === a.currency && a.total > threshold.amount) {
    return 'step_up_threshold';
  }
  // Autonomous mode ignores the threshold but still honours the new-merchant rule.
  if (autonomy.approvalForNewMerchants && !a.knownMerchant) return 'new_merchant';
  return null;
}

/**
 * Runs every rule in a fixed order (the first broken one is the 403 the buyer sees), then says
 * whether the spend needs the signer's approval. Equal to a limit passes.
 */
export function checkSpend(m: MandateRecord, a: SpendAttempt): ApprovalNeed {
  checkRules(m, a);
  return approvalNeed(m, a);
}
