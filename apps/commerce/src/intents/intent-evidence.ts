import { formatAmount } from '@exchange/platform';
import type { IntentRecord } from './intent.model';

/**
 * The intent as it is kept in a session's evidence (kind "intent"): the record in the REST
 * field names, so a casefile reader sees what the session was bound to without another lookup.
 */
export function intentEvidenceContent(i: IntentRecord): Record<string, unknown> {
  return {
    intent_id: i.intentId,
    agent_id: i.agentId,
    description: i.description,
    merchants: i.merchants,
    skus: i.skus,
    budget: { amount: formatAmount(i.budget), currency: i.currency },
    requires_refundability: i.requiresRefundability,
    expires_at: i.expiresAt.toISOString(),
    created_at: i.createdAt.toISOString(),
  };
}
