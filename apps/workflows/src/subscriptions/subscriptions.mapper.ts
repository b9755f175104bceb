import type { workflowsV1 } from '@exchange/proto';
import type { Actor, CreateSubscriptionInput, DeliveredEvent, SubscriptionView } from './subscription';

// Proto ⇄ domain for the subscription RPCs. int64 travels as decimal strings.

export function actorOf(actor: workflowsV1.Actor | undefined): Actor {
  return { agentId: actor?.agentId ? actor.agentId : null, operator: actor?.operator === true };
}

export function createInput(req: workflowsV1.CreateSubscriptionRequest): CreateSubscriptionInput {
  return {
    workflowRunId: req.filters?.workflowRunId,
    stage: req.filters?.stage,
    eventTypes: req.filters?.eventTypes ?? [],
    leaseSeconds: req.leaseSeconds,
    idempotencyKey: req.idempotencyKey,
  };
}

export function toProtoSubscription(s: SubscriptionView): workflowsV1.Subscription {
  return {
    subscriptionId: s.subscriptionId,
    owner: s.owner,
    filters: {
      workflowRunId: s.filters.workflowRunId ?? undefined,
      stage: s.filters.stage ?? undefined,
      eventTypes: s.filters.eventTypes,
    },
    ackFloor: s.ackFloor.toString(),
    pendingCount: s.pendingCount.toString(),
    leaseSeconds: s.leaseSeconds,
    createdAt: s.createdAt,
  };
}

export function toProtoEvent(e: DeliveredEvent): workflowsV1.TaskEvent {
  return {
    eventId: e.eventId,
    sequence: e.seq,
    type: e.type,
    workflowRunId: e.workflowRunId,
    stage: e.stage ?? undefined,
    shard: e.shard ?? undefined,
    taskId: e.taskId ?? undefined,
    contractId: e.contractId ?? undefined,
    dataJson: JSON.stringify(e.data),
    occurredAt: e.occurredAt,
    deliveryCount: e.deliveryCount,
  };
}
