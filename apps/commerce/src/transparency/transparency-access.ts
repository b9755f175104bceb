import { errors } from '@exchange/platform';

// Who may read what of transparency: rollups and a session's full record are the operator's; a
// purchase timeline is also its buyer's; shadow compare shows an agent its own sessions only.

/** Who calls (the gateway authenticated it): an agent, or the operator (agentId empty). */
export interface TransparencyActor {
  agentId: string;
  operator: boolean;
}

/** 403 operator_required unless the operator calls. */
export function requireOperator(actor: TransparencyActor | undefined): void {
  if (!actor?.operator) throw errors.permissionDenied('operator_required', 'only the operator may read transparency rollups and session records');
}

/**
 * The buyer filter of a shadow compare: the operator's (optional), or the acting agent itself
 * (asking for another buyer is 403 acting_agent_mismatch).
 */
export function shadowBuyerFilter(actor: TransparencyActor | undefined, requested: string | undefined): string | null {
  if (actor?.operator) return requested === undefined || requested === '' ? null : requested;
  const agentId = actor?.agentId ?? '';
  if (agentId === '') throw errors.permissionDenied('forbidden', 'an acting agent or the operator is required');
  if (requested !== undefined && requested !== '' && requested !== agentId) {
    throw errors.permissionDenied('acting_agent_mismatch', `buyer_agent_id must be the acting agent (${agentId})`, { buyer_agent_id: requested.slice(0, 200) });
  }
  return agentId;
}

/** 403 not_deal_buyer unless the operator or the purchase's buyer calls. */
export function assertDealReader(actor: TransparencyActor | undefined, buyerAgentId: string): void {
  if (actor?.operator) return;
  if (actor && actor.agentId !== '' && actor.agentId === buyerAgentId) return;
  throw errors.permissionDenied('not_deal_buyer', 'only the purchase’s buyer or the operator may read its timeline');
}
