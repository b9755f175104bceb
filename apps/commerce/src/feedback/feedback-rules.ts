import { errors } from '@exchange/platform';
import type { DealParties, FeedbackActor } from './feedback.model';

// The feedback request's own bounds (400s, before any lookup) and who may give it (403).

export const COMMENT_MAX_CHARS = 2000;
const DEAL_ID_MAX_CHARS = 200;

const invalid = (field: string, message: string) => errors.invalidArgument('validation_failed', message, { field });

export interface FeedbackInput {
  dealId: string;
  rating: number;
  comment: string;
}

/** deal_id 1-200 characters, rating an integer 1..5, comment at most 2000 characters (code points; may be empty). */
export function validateFeedback(input: FeedbackInput): FeedbackInput {
  if (input.dealId === '' || input.dealId.length > DEAL_ID_MAX_CHARS) throw invalid('deal_id', `deal_id is required (at most ${DEAL_ID_MAX_CHARS} characters)`);
  if (!Number.isInteger(input.rating) || input.rating < 1 || input.rating > 5) throw invalid('rating', 'rating is an integer from 1 to 5');
  if ([...input.comment].length > COMMENT_MAX_CHARS) throw invalid('comment', `comment is at most ${COMMENT_MAX_CHARS} characters`);
  return input;
}

/** Only the deal's buyer rates it: not the operator, not another agent (403 not_deal_buyer). */
export function requireDealBuyer(deal: DealParties, actor: FeedbackActor): void {
  if (actor.operator || actor.agentId === null || actor.agentId !== deal.buyerAgentId) {
    throw errors.permissionDenied('not_deal_buyer', `only the buyer of deal ${deal.dealId} may record feedback on it`, { deal_id: deal.dealId });
  }
}
