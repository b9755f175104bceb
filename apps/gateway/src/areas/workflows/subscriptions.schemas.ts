import { Type, type Static } from 'typebox';
import { CTR, Key, T } from '../../lib/market/market-kit';
import { Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { RUN, RunId, TSK, WorkflowsId } from './runs.schemas';

// REST shapes of task event subscriptions (DESIGN §4 Workflows): durable, at least once. A reader
// lists (the events are leased to it), processes, then consumes (acknowledges) them.

/** The task event types, as workflows.proto's TaskEvent.type lists them (apps/workflows task-event.ts; apps/exchange's workflow-event-types.spec.ts fails when the two differ). */
export const TASK_EVENT_TYPES = [
  'run.started',
  'run.completed',
  'run.failed',
  'run.cancelled',
  'stage.started',
  'stage.completed',
  'task.posted',
  'task.awarded',
  'task.delivered',
  'task.disputed',
  'task.settled',
  'task.failed',
  'task.retried',
  'task.cancelled',
] as const;

const SUB = 'sub_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const EVT = 'evt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const StageName = Type.String({ minLength: 1, maxLength: 64, description: 'Only events of this stage', examples: ['translate'] });
const EventType = StringEnum(TASK_EVENT_TYPES);
const EventId = WorkflowsId('Task event id', EVT);

export const SubscriptionParams = Type.Object({ subscription_id: WorkflowsId('Subscription id (`sub_…`)', SUB) }, { additionalProperties: false });

export const CreateSubscriptionBody = Type.Object(
  {
    filters: Type.Optional(
      Type.Object(
        {
          workflow_run_id: Type.Optional({ ...RunId, description: 'Only events of this run (an agent: one of its own runs, else 404 `workflow_run_not_found`)' }),
          stage: Type.Optional(StageName),
          event_types: Type.Optional(Type.Array(EventType, { maxItems: TASK_EVENT_TYPES.length, description: 'Only these types (absent or empty: every type)' })),
        },
        { additionalProperties: false, description: 'Which events (default: every event the caller may see: an agent’s own runs, all for the operator)' },
      ),
    ),
    lease_seconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 3600, description: 'How long a listed event stays with its reader before it is handed out again (default 30)' })),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ filters: { workflow_run_id: RUN, event_types: ['task.settled', 'run.completed'] }, lease_seconds: 60 }] },
);
export type CreateSubscriptionBodyJson = Static<typeof CreateSubscriptionBody>;

export const SubscriptionEventsQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'At most this many events (1–200, default 50)' })) },
  { additionalProperties: false },
);

export const ConsumeEventsBody = Type.Object(
  {
    event_ids: Type.Optional(Type.Array(EventId, { minItems: 1, maxItems: 500, description: 'These events (1–500)' })),
    up_to: Type.Optional({ ...EventId, description: 'This event and every matching event before it' }),
  },
  { additionalProperties: false, description: 'Exactly one of `event_ids` and `up_to`', examples: [{ up_to: EVT }] },
);
export type ConsumeEventsBodyJson = Static<typeof ConsumeEventsBody>;

const subscriptionExample = {
  subscription_id: SUB,
  owner: 'acme:agent:buyer-1',
  filters: { workflow_run_id: RUN, stage: null, event_types: ['task.settled', 'run.completed'] },
  ack_floor: 0,
  pending_count: 3,
  lease_seconds: 60,
  created_at: T,
};

export const WorkflowSubscription = Type.Object(
  {
    subscription_id: Type.String(),
    owner: Type.String({ description: 'The agent that owns it, or `operator`' }),
    filters: Type.Object(
      { workflow_run_id: Nullable(Type.String()), stage: Nullable(Type.String()), event_types: Type.Array(EventType, { description: 'Empty: every type' }) },
      { additionalProperties: false },
    ),
    ack_floor: Type.Integer({ minimum: 0, description: 'Every matching event up to this sequence is acknowledged (0: none yet)' }),
    pending_count: Type.Integer({ minimum: 0, description: 'Matching events not yet acknowledged' }),
    lease_seconds: Type.Integer(),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'A durable, at-least-once task event subscription', examples: [subscriptionExample] },
);
export type WorkflowSubscriptionJson = Static<typeof WorkflowSubscription>;

const eventExample = {
  event_id: EVT,
  sequence: 42,
  type: 'task.settled',
  workflow_run_id: RUN,
  stage: 'translate',
  shard: 0,
  task_id: TSK,
  contract_id: CTR,
  data: { task: { taskId: TSK, status: 'TASK_STATUS_SETTLED' } },
  occurred_at: T,
  delivery_count: 1,
};

export const WorkflowTaskEvent = Type.Object(
  {
    event_id: Type.String(),
    sequence: Type.Integer({ minimum: 1, description: 'Position in the task event log (strictly increasing)' }),
    type: EventType,
    workflow_run_id: Type.String(),
    stage: Nullable(Type.String()),
    shard: Nullable(Type.Integer()),
    task_id: Nullable(Type.String()),
    contract_id: Nullable(Type.String()),
    data: Type.Object({}, { additionalProperties: true, description: 'The task (task.*), the stage (stage.*) or the run (run.*) after the change' }),
    occurred_at: Timestamp,
    delivery_count: Type.Integer({ minimum: 1, description: 'How many times it was handed to this subscription (1 on first delivery)' }),
  },
  { additionalProperties: false, description: 'One change of a run, stage or task', examples: [eventExample] },
);
export type WorkflowTaskEventJson = Static<typeof WorkflowTaskEvent>;

export const WorkflowTaskEventList = Type.Object(
  { data: Type.Array(WorkflowTaskEvent), subscription: WorkflowSubscription },
  {
    additionalProperties: false,
    description: 'Unacknowledged events not leased to another reader, in sequence order, now leased to this one; and the subscription',
    examples: [{ data: [eventExample], subscription: subscriptionExample }],
  },
);

export const WorkflowEventsConsumed = Type.Object(
  { acknowledged: Type.Integer({ minimum: 0, description: 'Events newly acknowledged by this call (already acknowledged ones count 0)' }), subscription: WorkflowSubscription },
  { additionalProperties: false, description: 'What the consume acknowledged, and the subscription after it', examples: [{ acknowledged: 3, subscription: { ...subscriptionExample, ack_floor: 42, pending_count: 0 } }] },
);
