import type { MandateBudget } from './budget';

/**
 * Commerce's mandates as a proxy budget reads them (adapter: clients/commerce-mandates.client.ts).
 * Read as the agent (commerce hides a mandate from non-parties: 404 mandate_not_found); commerce
 * unreachable or not configured → 503 commerce_unavailable.
 */
export interface MandateSource {
  mandate(agentId: string, mandateId: string, trace: { requestId?: string; traceId?: string }): Promise<MandateBudget>;
}
