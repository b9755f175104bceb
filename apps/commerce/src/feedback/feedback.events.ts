import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { commerceV1, type commerceV1 as C } from '@exchange/proto';
import type pg from 'pg';
import type { FeedbackRecord } from './feedback.model';

// Feedback → proto (RPC answer and event payload) and its outbox writer, called in the insert's transaction.

export function toProtoFeedback(f: FeedbackRecord): C.Feedback {
  return {
    feedbackId: f.feedbackId,
    dealId: f.dealId,
    buyerAgentId: f.buyerAgentId,
    merchantDomain: f.merchantDomain,
    rating: f.rating,
    comment: f.comment,
    createdAt: f.createdAt,
  };
}

/** exchange.commerce.feedback.recorded, subject the deal, data {feedback}. */
export async function enqueueFeedbackRecorded(client: pg.ClientBase, f: FeedbackRecord): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({
      type: 'exchange.commerce.feedback.recorded',
      source: 'commerce',
      subjectId: f.dealId,
      actor: `agent:${f.buyerAgentId}`,
      data: { feedback: commerceV1.Feedback.toJSON(toProtoFeedback(f)) },
    }),
  );
}
