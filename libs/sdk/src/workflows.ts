// Workflow runs (DESIGN §4 Workflows): stages of shard contracts posted in the market for the
// run's owner, tasks mirroring those contracts, and durable, at-least-once task event
// subscriptions (list → process → consume).
import { sendIdempotent } from './idempotency';
import { compact } from './market-base';
import type { Money } from './market-types';
import { paginate, type Page, type PageParams } from './pagination';
import { pathSegment, type Transport } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

export type WorkflowRun = api.WorkflowRun;
export type WorkflowStage = api.WorkflowStage;
export type WorkflowTask = api.WorkflowTask;
export type WorkflowShardContract = api.WorkflowShardContract;
export type WorkflowSubscription = api.WorkflowSubscription;
export type WorkflowTaskEvent = api.WorkflowTaskEvent;
export type WorkflowTaskEventList = api.WorkflowTaskEventList;
export type WorkflowEventsConsumed = api.WorkflowEventsConsumed;
export type WorkflowRunStatus = WorkflowRun['status'];
export type WorkflowTaskStatus = WorkflowTask['status'];
export type WorkflowTaskEventType = WorkflowTaskEvent['type'];

export interface ShardContractSpec {
  title: string;
  description?: string;
  tags?: string[];
  /** Budget of ONE shard contract. */
  budget: Money;
  verificationMode: WorkflowStage['contract']['verification_mode'];
  /** What each shard result must satisfy (required, as for any contract). */
  acceptanceCriteria: string;
  verifierId?: string;
  /** Each shard contract's deadline: its posting time plus this (60 s – 30 days). */
  deadlineSeconds: number;
}

export interface StageSpec {
  name: string;
  shards: number;
  contract: ShardContractSpec;
}

export interface CreateRunInput extends Idempotent {
  /** Default: the acting agent (required with the operator token and no X-Agent-Id). */
  ownerAgentId?: string;
  template: string;
  stages: StageSpec[];
  inputRefs?: string[];
  /** 1–10 (default 3). */
  maxShardAttempts?: number;
}

export interface ListRunsParams extends PageParams {
  template?: string;
  /** The owner. */
  agent?: string;
  status?: WorkflowRunStatus;
}

export interface ListRunContractsParams extends PageParams {
  stage?: string;
  shard?: number;
  status?: WorkflowShardContract['status'];
}

export interface ListTasksParams extends PageParams {
  run?: string;
  stage?: string;
  status?: WorkflowTaskStatus;
}

export interface CreateSubscriptionInput extends Idempotent {
  workflowRunId?: string;
  stage?: string;
  /** Absent or empty: every type. */
  eventTypes?: WorkflowTaskEventType[];
  /** 5–3600 (default 30). */
  leaseSeconds?: number;
}

/** Exactly one: these events, or that event and every matching one before it. */
export type ConsumeEventsInput = { eventIds: string[]; upTo?: never } | { upTo: string; eventIds?: never };

/** A shard contract spec as the gateway takes it (absent optionals left out of the JSON). */
function contractBody(c: ShardContractSpec): api.CreateWorkflowRunRequest['stages'][number]['contract'] {
  const body = {
    title: c.title,
    description: c.description,
    tags: c.tags,
    budget: { amount: c.budget.amount, currency: c.budget.currency },
    verification_mode: c.verificationMode,
    acceptance_criteria: c.acceptanceCriteria,
    verifier_id: c.verifierId,
    deadline_seconds: c.deadlineSeconds,
  } satisfies api.CreateWorkflowRunRequest['stages'][number]['contract'];
  return compact(body) as typeof body;
}

const runPath = (id: string, suffix = '') => `/v1/workflows/runs/${pathSegment(id)}${suffix}`;
const eventsPath = (id: string, suffix = '') => `/v1/workflows/tasks/subscriptions/${pathSegment(id)}/events${suffix}`;

export class WorkflowsApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/workflows/runs → 201: the owner's balance must cover Σ shards × shard budget. */
  createRun(input: CreateRunInput): Promise<WorkflowRun> {
    const body = {
      owner_agent_id: input.ownerAgentId,
      template: input.template,
      stages: input.stages.map((s) => ({
        name: s.name,
        shards: s.shards,
        contract: contractBody(s.contract),
      })),
      input_refs: input.inputRefs,
      max_shard_attempts: input.maxShardAttempts,
    } satisfies Omit<api.CreateWorkflowRunRequest, 'idempotency_key'>;
    return sendIdempotent(this.transport, { method: 'POST', path: '/v1/workflows/runs', body: compact(body) }, input.idempotencyKey);
  }

  listRuns(params: ListRunsParams = {}): Promise<Page<WorkflowRun>> {
    return this.transport.request({
      method: 'GET',
      path: '/v1/workflows/runs',
      query: { template: params.template, agent: params.agent, status: params.status, limit: params.limit, cursor: params.cursor },
    });
  }

  iterateRuns(params: Omit<ListRunsParams, 'cursor'> = {}): AsyncGenerator<WorkflowRun, void, undefined> {
    return paginate((cursor) => this.listRuns({ ...params, cursor }));
  }

  getRun(workflowRunId: string): Promise<WorkflowRun> {
    return this.transport.request({ method: 'GET', path: runPath(workflowRunId) });
  }

  /** GET …/runs/{id}/contracts: one per shard attempt; offer on them through client.offers. */
  listRunContracts(workflowRunId: string, params: ListRunContractsParams = {}): Promise<Page<WorkflowShardContract>> {
    return this.transport.request({
      method: 'GET',
      path: runPath(workflowRunId, '/contracts'),
      query: { stage: params.stage, shard: params.shard, status: params.status, limit: params.limit, cursor: params.cursor },
    });
  }

  /** POST …/runs/{id}/export (operator): the exchange-signed docket (verify it with client.casefiles.verify or verifyDocket). */
  exportRun(workflowRunId: string): Promise<Record<string, unknown>> {
    return this.transport
      .request<api.WorkflowRunDocket>({ method: 'POST', path: runPath(workflowRunId, '/export'), body: {} satisfies api.ExportWorkflowRunRequest })
      .then((res) => res.docket);
  }

  listTasks(params: ListTasksParams = {}): Promise<Page<WorkflowTask>> {
    return this.transport.request({
      method: 'GET',
      path: '/v1/workflows/tasks',
      query: { run: params.run, stage: params.stage, status: params.status, limit: params.limit, cursor: params.cursor },
    });
  }

  /** POST /v1/workflows/tasks/subscriptions → 201: reads from the start of the task event log. */
  createSubscription(input: CreateSubscriptionInput = {}): Promise<WorkflowSubscription> {
    const filters = { workflow_run_id: input.workflowRunId, stage: input.stage, event_types: input.eventTypes };
    const body = { filters: compact(filters), lease_seconds: input.leaseSeconds } satisfies Omit<api.CreateWorkflowTaskSubscriptionRequest, 'idempotency_key'>;
    return sendIdempotent(this.transport, { method: 'POST', path: '/v1/workflows/tasks/subscriptions', body: compact(body) }, input.idempotencyKey);
  }

  /** GET …/events: unacknowledged events in order, leased to this reader for the subscription's lease. */
  listEvents(subscriptionId: string, limit?: number): Promise<WorkflowTaskEventList> {
    return this.transport.request({ method: 'GET', path: eventsPath(subscriptionId), query: { limit } });
  }

  /** POST …/events/consume: acknowledge after processing (idempotent). */
  consumeEvents(subscriptionId: string, input: ConsumeEventsInput): Promise<WorkflowEventsConsumed> {
    const body = { event_ids: input.eventIds, up_to: input.upTo } satisfies api.ConsumeWorkflowTaskEventsRequest;
    return this.transport.request({ method: 'POST', path: eventsPath(subscriptionId, '/consume'), body: compact(body) });
  }
}
