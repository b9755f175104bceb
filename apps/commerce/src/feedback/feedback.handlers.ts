import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import * as map from './feedback.mapper';
import { FeedbackService } from './feedback.service';

/** The CommerceService RPC of feedback: proto in, proto out. */
export function feedbackHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, 'recordFeedback'> {
  const s = new FeedbackService({ pool: r.pool, clock: r.clock, notify: r.notify });
  return {
    recordFeedback: unary(logger, 'RecordFeedback', async (req: commerceV1.RecordFeedbackRequest) => ({
      feedback: map.toProtoFeedback(await s.record(map.feedbackInput(req), map.actorOf(req.actor))),
    })),
  };
}
