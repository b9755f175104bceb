import type { commerceV1 } from '@exchange/proto';
import type { IntentActor } from './intent.model';
import type { CreateIntentInput } from './intent-input';

// Proto requests → the intents service's inputs (answers are encoded by intents.events.ts's
// toProtoIntent, shared with the event payload).

export { toProtoIntent } from './intents.events';

/** The request's actor; an empty agent_id is none. */
export function actorOf(actor: commerceV1.Actor | undefined): IntentActor {
  return { agentId: actor?.agentId ? actor.agentId : null, operator: actor?.operator === true };
}

export function createIntentInput(req: commerceV1.CreateIntentRequest): CreateIntentInput & { idempotencyKey: string } {
  return {
    agentId: req.agentId,
    description: req.description,
    merchants: req.merchants,
    skus: req.skus,
    budget: req.budget === undefined ? undefined : { amount: req.budget.amount, currency: req.budget.currency },
    requiresRefundability: req.requiresRefundability,
    expiresAt: req.expiresAt,
    idempotencyKey: req.idempotencyKey,
  };
}
