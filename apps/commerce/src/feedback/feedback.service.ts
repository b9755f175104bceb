import { errors, newId } from '@exchange/platform';
import { withTransaction } from '@exchange/db';
import type { CommerceRuntime } from '../service/runtime';
import type { FeedbackActor, FeedbackRecord } from './feedback.model';
import { requireDealBuyer, validateFeedback, type FeedbackInput } from './feedback-rules';
import { getDealParties, insertFeedback } from './feedback.repo';
import { enqueueFeedbackRecorded } from './feedback.events';

export type FeedbackDeps = Pick<CommerceRuntime, 'pool' | 'clock' | 'notify'>;

/** Feedback on purchases: the buyer rates a deal once. */
export class FeedbackService {
  constructor(private readonly deps: FeedbackDeps) {}

  /**
   * 400 for a bad request, 404 purchase_not_found, 403 not_deal_buyer, 409 feedback_exists when
   * the buyer already rated the deal (the unique index decides, so two concurrent requests
   * cannot both pass); the feedback and its event commit together.
   */
  async record(input: FeedbackInput, actor: FeedbackActor): Promise<FeedbackRecord> {
    const checked = validateFeedback(input);
    const deal = await getDealParties(this.deps.pool, checked.dealId);
    if (deal === null) throw errors.notFound('purchase', checked.dealId);
    requireDealBuyer(deal, actor);
    const feedback: FeedbackRecord = {
      feedbackId: newId('fbk'),
      dealId: deal.dealId,
      buyerAgentId: deal.buyerAgentId,
      merchantDomain: deal.merchantDomain,
      rating: checked.rating,
      comment: checked.comment,
      createdAt: this.deps.clock(),
    };
    await withTransaction(this.deps.pool, async (client) => {
      if (!(await insertFeedback(client, feedback))) {
        throw errors.alreadyExists('feedback_exists', `feedback on deal ${deal.dealId} was already recorded`, { deal_id: deal.dealId });
      }
      await enqueueFeedbackRecorded(client, feedback);
    });
    this.deps.notify();
    return feedback;
  }
}
