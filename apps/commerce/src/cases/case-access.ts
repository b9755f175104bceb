import { errors } from '@exchange/platform';
import type { Actor } from './case.model';

// Who may do what with a case. Reads: the deal's buyer or the operator; another agent gets 403
// not_deal_buyer (not 404): case ids are random, and a clear refusal helps an agent that mixed up
// its deals. Opening: the buyer only. Moving the status: the operator only. Evidence: either.

const notBuyer = (dealId: string) => errors.permissionDenied('not_deal_buyer', `only the buyer of deal ${dealId} may do this`, { deal_id: dealId });

/** Opening a case is the deal's buyer's alone (the operator included: 403 not_deal_buyer). */
export function requireBuyer(buyerAgentId: string, dealId: string, actor: Actor): void {
  if (actor.operator || actor.agentId === null || actor.agentId !== buyerAgentId) throw notBuyer(dealId);
}

/** The buyer or the operator (reads and evidence). */
export function requireParty(buyerAgentId: string, dealId: string, actor: Actor): void {
  if (actor.operator) return;
  if (actor.agentId === null || actor.agentId !== buyerAgentId) throw notBuyer(dealId);
}

/** Status moves (review, approve, deny, close) are the operator's (403 operator_required). */
export function requireOperator(actor: Actor): void {
  if (!actor.operator) throw errors.permissionDenied('operator_required', 'only the operator moves a case’s status');
}
