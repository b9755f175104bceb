import type { commerceV1 } from '@exchange/proto';
import type { FeedbackActor } from './feedback.model';
import type { FeedbackInput } from './feedback-rules';

// Proto request → the feedback service's input (the answer is encoded by feedback.events.ts).

export { toProtoFeedback } from './feedback.events';

export function actorOf(actor: commerceV1.Actor | undefined): FeedbackActor {
  return { agentId: actor?.agentId ? actor.agentId : null, operator: actor?.operator === true };
}

export function feedbackInput(req: commerceV1.RecordFeedbackRequest): FeedbackInput {
  return { dealId: req.dealId, rating: req.rating, comment: req.comment };
}
