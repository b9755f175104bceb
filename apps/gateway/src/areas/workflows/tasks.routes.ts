import { workflowsV1Wire } from '@exchange/proto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../lib/acting-agent';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import { problem } from '../../plugins/app/problem';
import { ListTasksQuery, WorkflowTaskPage } from './runs.schemas';
import { TAGS } from './runs.routes';
import { ConsumeEventsBody, CreateSubscriptionBody, SubscriptionEventsQuery, SubscriptionParams, WorkflowEventsConsumed, WorkflowSubscription, WorkflowTaskEventList } from './subscriptions.schemas';
import { subscriptionToJson, taskEventToJson, taskToJson } from './workflows.mapper';

// Workflow tasks and task event subscriptions (DESIGN §4 Workflows) over WorkflowsService: a
// subscription is durable and at least once — list (events leased to the reader), process,
// consume (acknowledge). Workflows checks ownership (it gets the Actor). Full paths.

const SUB_READERS = 'The subscription’s owner (the agent that created it, or the operator for its own); else 404 `subscription_not_found`.';

const tasksRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { workflows } = fastify;

  fastify.get(
    '/v1/workflows/tasks',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listWorkflowTasks',
        summary: 'List workflow tasks',
        description:
          'A task is one attempt at one shard, the mirror of its shard contract (`posting` → `open` → `awarded` → `delivered` → ' +
          '`settled`; `failed` when its contract expired, was cancelled or refunded; `cancelled` when the run stopped). Filters ' +
          '`run`, `stage`, `status`; cursor pagination. An agent sees the tasks of its own runs (a `run` of another agent: 404 ' +
          '`workflow_run_not_found`), the operator every task.',
        security: SECURITY.operator_or_agent,
        querystring: ListTasksQuery,
        response: { 200: WorkflowTaskPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await workflows.listTasks(
        {
          actor: actorOf(request),
          page: pageFromQuery(q),
          workflowRunId: q.run,
          stage: q.stage,
          status: q.status === undefined ? undefined : workflowsV1Wire.taskStatus.toProto(q.status),
        },
        request.auth.callOptions,
      );
      return { data: res.tasks.map(taskToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.post(
    '/v1/workflows/tasks/subscriptions',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createWorkflowTaskSubscription',
        summary: 'Create a task event subscription',
        description:
          'A durable, at-least-once reader of task events (`run.*`, `stage.*`, `task.*`), from the start of the log: an agent’s ' +
          'subscription sees the events of its own runs, the operator’s every run’s; `filters` narrow it to a run, a stage and ' +
          'event types (a run the agent does not own: 404 `workflow_run_not_found`). Read with GET …/events (each listed event ' +
          'is leased to the reader for `lease_seconds`, then handed out again unless consumed), acknowledge with POST ' +
          '…/events/consume. Errors: 400 `validation_failed`; 422 `idempotency_key_reused`. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateSubscriptionBody,
        response: { 201: WorkflowSubscription, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await workflows.createSubscription(
        {
          actor: actorOf(request),
          filters: { workflowRunId: b.filters?.workflow_run_id, stage: b.filters?.stage, eventTypes: b.filters?.event_types ?? [] },
          leaseSeconds: b.lease_seconds ?? 0,
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(subscriptionToJson(res.subscription));
    },
  );

  fastify.get(
    '/v1/workflows/tasks/subscriptions/:subscription_id/events',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listWorkflowTaskEvents',
        summary: 'List pending task events',
        description:
          'Up to `limit` unacknowledged events that no other reader holds, in `sequence` order, now leased to this reader for ' +
          'the subscription’s `lease_seconds` (`delivery_count` counts the hand-outs). An event not consumed comes back after ' +
          'its lease; none is ever dropped while unacknowledged. The answer carries the subscription (`ack_floor`, ' +
          '`pending_count`). ' +
          SUB_READERS,
        security: SECURITY.operator_or_agent,
        params: SubscriptionParams,
        querystring: SubscriptionEventsQuery,
        response: { 200: WorkflowTaskEventList, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await workflows.listSubscriptionEvents(
        { actor: actorOf(request), subscriptionId: request.params.subscription_id, limit: request.query.limit ?? 0 },
        request.auth.callOptions,
      );
      return { data: res.events.map(taskEventToJson), subscription: subscriptionToJson(res.subscription) };
    },
  );

  fastify.post(
    '/v1/workflows/tasks/subscriptions/:subscription_id/events/consume',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'consumeWorkflowTaskEvents',
        summary: 'Consume (acknowledge) task events',
        description:
          'Exactly one of `event_ids` (these events) and `up_to` (that event and every matching event before it); else 400 ' +
          '`validation_failed`. Idempotent: already acknowledged events count 0 in `acknowledged`. An id that is not an event ' +
          'of this subscription is 404 `task_event_not_found` and nothing is acknowledged. ' +
          SUB_READERS,
        security: SECURITY.operator_or_agent,
        params: SubscriptionParams,
        body: ConsumeEventsBody,
        response: { 200: WorkflowEventsConsumed, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const b = request.body;
      if ((b.event_ids === undefined) === (b.up_to === undefined)) {
        throw problem(400, 'validation_failed', 'send exactly one of event_ids and up_to', {
          errors: [{ pointer: '', message: 'exactly one of event_ids, up_to is required' }],
        });
      }
      const res = await workflows.consumeSubscriptionEvents(
        { actor: actorOf(request), subscriptionId: request.params.subscription_id, eventIds: b.event_ids ?? [], upTo: b.up_to },
        request.auth.callOptions,
      );
      return { acknowledged: res.acknowledged, subscription: subscriptionToJson(res.subscription) };
    },
  );
};

export default tasksRoutes;
