import { errors, formatAmount } from '@exchange/platform';
import type { IntentRecord } from './intent.model';

// The rules a checkout naming an intent must keep (DESIGN §4 "Commerce"; AP2 IntentMandate). Pure:
// the caller loads the intent and asks the merchant's profile whether it reports orders. Create
// and update run `checkIntentBeforeMerchant` on what the buyer asks for (refused: nothing is sent
// to the merchant), then `checkIntentSession` on what the merchant answered; complete runs
// `checkIntentSession` on the stored session. The first broken rule is the 403 the buyer sees.

/** What the buyer asks for, before the merchant is called. */
export interface IntentRequest {
  buyerAgentId: string;
  merchantDomain: string;
  /** Item ids of the requested lines (UCP line_items[].item.id). */
  skus: string[];
  /** The merchant's profile advertises dev.ucp.shopping.order (it can report refunds and returns). */
  merchantReportsOrders: boolean;
  now: Date;
}

/** The session as the merchant priced it. */
export interface IntentSession extends IntentRequest {
  currency: string;
  total: bigint;
}

type Intent = Pick<IntentRecord, 'intentId' | 'agentId' | 'merchants' | 'skus' | 'budget' | 'currency' | 'requiresRefundability' | 'expiresAt'>;

function requireStanding(intent: Intent, a: IntentRequest): void {
  if (a.buyerAgentId !== intent.agentId) {
    throw errors.permissionDenied('not_intent_agent', `intent ${intent.intentId} was made for another agent`, { intent_id: intent.intentId });
  }
  if (intent.expiresAt.getTime() <= a.now.getTime()) {
    throw errors.permissionDenied('intent_expired', `intent ${intent.intentId} expired at ${intent.expiresAt.toISOString()}`, {
      intent_id: intent.intentId,
      expires_at: intent.expiresAt.toISOString(),
    });
  }
  const domain = a.merchantDomain.toLowerCase();
  if (intent.merchants.length > 0 && !intent.merchants.includes(domain)) {
    throw errors.permissionDenied('intent_merchant_not_allowed', `merchant ${domain} is not among the intent's merchants`, { merchant_domain: domain });
  }
  if (intent.requiresRefundability && !a.merchantReportsOrders) {
    throw errors.permissionDenied('intent_refundability_unmet', `the intent requires refundability and ${domain} has no dev.ucp.shopping.order capability`, {
      merchant_domain: domain,
    });
  }
}

function requireSkus(intent: Intent, skus: readonly string[]): void {
  if (intent.skus.length === 0) return;
  const outside = skus.find((sku) => !intent.skus.includes(sku));
  if (outside !== undefined) throw errors.permissionDenied('intent_sku_not_allowed', `sku ${outside} is not among the intent's skus`, { sku: outside });
}

/** Agent, expiry, merchant, refundability and the requested skus: what no merchant answer can change. */
export function checkIntentBeforeMerchant(intent: Intent, a: IntentRequest): void {
  requireStanding(intent, a);
  requireSkus(intent, a.skus);
}

/** Every rule, on the merchant's lines and totals: currency and budget too (a total equal to the budget passes). */
export function checkIntentSession(intent: Intent, a: IntentSession): void {
  checkIntentBeforeMerchant(intent, a);
  if (a.currency !== intent.currency) {
    throw errors.permissionDenied('intent_currency_mismatch', `the checkout is in ${a.currency}, the intent's budget in ${intent.currency}`, {
      currency: a.currency,
      intent_currency: intent.currency,
    });
  }
  if (a.total > intent.budget) {
    throw errors.permissionDenied('intent_budget_exceeded', "the checkout total is over the intent's budget", {
      total: formatAmount(a.total),
      budget: formatAmount(intent.budget),
      currency: intent.currency,
    });
  }
}
