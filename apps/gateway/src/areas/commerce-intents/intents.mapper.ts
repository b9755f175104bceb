import type { commerceV1 } from '@exchange/proto';
import { CommerceContractError, contractChecks } from '../../lib/mapper-kit';
import type { FeedbackJson, IntentJson } from './intents.schemas';

// Proto → REST for intents and feedback. Amounts stay decimal strings. Pure functions, no I/O.

const { required } = contractChecks((what) => new CommerceContractError(what));
const iso = (date: Date | undefined, what: string) => required(date, what).toISOString();

export function intentToJson(intent: commerceV1.Intent | undefined): IntentJson {
  const i = required(intent, 'intent');
  const budget = required(i.budget, 'intent budget');
  return {
    intent_id: i.intentId,
    agent_id: i.agentId,
    description: i.description,
    merchants: [...i.merchants],
    skus: [...i.skus],
    budget: { amount: budget.amount, currency: budget.currency },
    requires_refundability: i.requiresRefundability,
    expires_at: iso(i.expiresAt, 'intent expires_at'),
    created_at: iso(i.createdAt, 'intent created_at'),
  };
}

export function feedbackToJson(feedback: commerceV1.Feedback | undefined): FeedbackJson {
  const f = required(feedback, 'feedback');
  return {
    feedback_id: f.feedbackId,
    deal_id: f.dealId,
    buyer_agent_id: f.buyerAgentId,
    merchant_domain: f.merchantDomain,
    rating: f.rating,
    comment: f.comment,
    created_at: iso(f.createdAt, 'feedback created_at'),
  };
}
