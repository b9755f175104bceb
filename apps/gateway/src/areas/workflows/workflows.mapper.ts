import { marketV1Wire, workflowsV1Wire, type workflowsV1 } from '@exchange/proto';
import { contractChecks, isoOrNull, moneyOrNull, orNull, ServiceContractError } from '../../lib/mapper-kit';
import type { WorkflowRunJson, WorkflowShardContractJson, WorkflowTaskJson } from './runs.schemas';
import { TASK_EVENT_TYPES, type WorkflowTaskEventJson, type WorkflowSubscriptionJson } from './subscriptions.schemas';

// Proto → REST for workflow runs, tasks, shard contracts, subscriptions and task events. Enums
// through the generated workflowsV1Wire / marketV1Wire tables; amounts stay decimal strings;
// int64 counters become numbers; JSON text fields (event data, docket) become the objects they
// hold. Pure functions, no I/O.

/** Workflows answered without a field the contract guarantees (a bug there → 500 here). */
export class WorkflowsContractError extends ServiceContractError {
  constructor(what: string) {
    super('workflows', what);
    this.name = 'WorkflowsContractError';
  }
}

const { required, enumToJson, parsedJson, iso, money } = contractChecks((what) => new WorkflowsContractError(what));
const int = (value: string, what: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new WorkflowsContractError(what);
  return n;
};
const contractStatus = (value: number, what: string) => enumToJson(marketV1Wire.contractStatus, value, what);

function objectOf(text: string, what: string): Record<string, unknown> {
  const value = parsedJson(text, what);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WorkflowsContractError(what);
  return value as Record<string, unknown>;
}

function stageToJson(s: workflowsV1.Stage): WorkflowRunJson['stages'][number] {
  const c = required(s.contract, 'stage contract');
  return {
    name: s.name,
    index: s.index,
    shards: s.shards,
    contract: {
      title: c.title,
      description: c.description,
      tags: [...c.tags],
      budget: money(c.budget, 'stage contract budget'),
      verification_mode: enumToJson(marketV1Wire.verificationMode, c.verificationMode, 'stage verification mode'),
      acceptance_criteria: c.acceptanceCriteria,
      verifier_id: orNull(c.verifierId),
      deadline_seconds: c.deadlineSeconds,
    },
    status: enumToJson(workflowsV1Wire.stageStatus, s.status, 'stage status'),
    settled_shards: s.settledShards,
    input_refs: [...s.inputRefs],
    output_refs: [...s.outputRefs],
    started_at: isoOrNull(s.startedAt),
    completed_at: isoOrNull(s.completedAt),
  };
}

export function runToJson(value: workflowsV1.Run | undefined): WorkflowRunJson {
  const r = required(value, 'run');
  return {
    workflow_run_id: r.workflowRunId,
    template: r.template,
    owner_agent_id: r.ownerAgentId,
    status: enumToJson(workflowsV1Wire.runStatus, r.status, 'run status'),
    stages: r.stages.map(stageToJson),
    input_refs: [...r.inputRefs],
    current_stage: r.currentStage,
    max_shard_attempts: r.maxShardAttempts,
    budget: money(r.budget, 'run budget'),
    spent: money(r.spent, 'run spent'),
    committed: money(r.committed, 'run committed'),
    failure_reason: orNull(r.failureReason),
    output_refs: [...r.outputRefs],
    created_at: iso(r.createdAt, 'run created_at'),
    updated_at: iso(r.updatedAt, 'run updated_at'),
    completed_at: isoOrNull(r.completedAt),
  };
}

export function shardContractToJson(c: workflowsV1.ShardContract): WorkflowShardContractJson {
  return {
    contract_id: c.contractId,
    workflow_run_id: c.workflowRunId,
    stage: c.stage,
    stage_index: c.stageIndex,
    shard: c.shard,
    attempt: c.attempt,
    task_id: c.taskId,
    status: contractStatus(c.status, 'shard contract status'),
    seller_id: orNull(c.sellerId),
    price: moneyOrNull(c.price),
    created_at: iso(c.createdAt, 'shard contract created_at'),
    updated_at: iso(c.updatedAt, 'shard contract updated_at'),
  };
}

export function taskToJson(t: workflowsV1.Task): WorkflowTaskJson {
  return {
    task_id: t.taskId,
    workflow_run_id: t.workflowRunId,
    stage: t.stage,
    stage_index: t.stageIndex,
    shard: t.shard,
    attempt: t.attempt,
    status: enumToJson(workflowsV1Wire.taskStatus, t.status, 'task status'),
    contract_id: orNull(t.contractId),
    contract_status: t.contractStatus === undefined ? null : contractStatus(t.contractStatus, 'task contract_status'),
    seller_id: orNull(t.sellerId),
    price: moneyOrNull(t.price),
    input_refs: [...t.inputRefs],
    result_refs: [...t.resultRefs],
    failure_reason: orNull(t.failureReason),
    created_at: iso(t.createdAt, 'task created_at'),
    updated_at: iso(t.updatedAt, 'task updated_at'),
    settled_at: isoOrNull(t.settledAt),
  };
}

export function subscriptionToJson(value: workflowsV1.Subscription | undefined): WorkflowSubscriptionJson {
  const s = required(value, 'subscription');
  const f = s.filters;
  return {
    subscription_id: s.subscriptionId,
    owner: s.owner,
    filters: {
      workflow_run_id: orNull(f?.workflowRunId),
      stage: orNull(f?.stage),
      event_types: (f?.eventTypes ?? []).map((t) => eventType(t)),
    },
    ack_floor: int(s.ackFloor, 'subscription ack_floor'),
    pending_count: int(s.pendingCount, 'subscription pending_count'),
    lease_seconds: s.leaseSeconds,
    created_at: iso(s.createdAt, 'subscription created_at'),
  };
}

function eventType(value: string): WorkflowTaskEventJson['type'] {
  const type = TASK_EVENT_TYPES.find((t) => t === value);
  if (type === undefined) throw new WorkflowsContractError('task event type');
  return type;
}

export function taskEventToJson(e: workflowsV1.TaskEvent): WorkflowTaskEventJson {
  return {
    event_id: e.eventId,
    sequence: int(e.sequence, 'task event sequence'),
    type: eventType(e.type),
    workflow_run_id: e.workflowRunId,
    stage: orNull(e.stage),
    shard: orNull(e.shard),
    task_id: orNull(e.taskId),
    contract_id: orNull(e.contractId),
    data: objectOf(e.dataJson, 'task event data_json'),
    occurred_at: iso(e.occurredAt, 'task event occurred_at'),
    delivery_count: e.deliveryCount,
  };
}

/** The signed docket the service answers as JSON text, as the object it holds. */
export const docketToJson = (res: workflowsV1.ExportRunResponse) => ({ docket: objectOf(res.docketJson, 'docket_json') });
