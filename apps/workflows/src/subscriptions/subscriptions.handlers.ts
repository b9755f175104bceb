import { unary, type Logger } from '@exchange/platform';
import type { workflowsV1 } from '@exchange/proto';
import type { WorkflowsRuntime } from '../service/runtime';
import * as map from './subscriptions.mapper';
import { SubscriptionsService } from './subscriptions.service';

type SubscriptionRpcs = 'createSubscription' | 'listSubscriptionEvents' | 'consumeSubscriptionEvents';

/** The WorkflowsService RPCs of task event subscriptions: proto in, proto out. */
export function subscriptionsHandlers(r: WorkflowsRuntime, logger: Logger): Pick<workflowsV1.WorkflowsServiceServer, SubscriptionRpcs> {
  const s = new SubscriptionsService({ pool: r.pool, clock: r.clock });
  return {
    createSubscription: unary(logger, 'CreateSubscription', async (req: workflowsV1.CreateSubscriptionRequest) => {
      const res = await s.create(map.createInput(req), map.actorOf(req.actor));
      return { subscription: map.toProtoSubscription(res.subscription), idempotentReplayed: res.replayed };
    }),
    listSubscriptionEvents: unary(logger, 'ListSubscriptionEvents', async (req: workflowsV1.ListSubscriptionEventsRequest) => {
      const res = await s.listEvents(req.subscriptionId, map.actorOf(req.actor), req.limit);
      return { events: res.events.map(map.toProtoEvent), subscription: map.toProtoSubscription(res.subscription) };
    }),
    consumeSubscriptionEvents: unary(logger, 'ConsumeSubscriptionEvents', async (req: workflowsV1.ConsumeSubscriptionEventsRequest) => {
      const res = await s.consume(req.subscriptionId, map.actorOf(req.actor), req.eventIds, req.upTo);
      return { acknowledged: res.acknowledged, subscription: map.toProtoSubscription(res.subscription) };
    }),
  };
}
