import { canonicalize, sha256Hex } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { isTaskEventType, TASK_EVENT_TYPES, type TaskEventRecord } from '../task-events/task-event';

// Task event subscriptions (DESIGN §4 "Workflows"): durable, at least once. A subscription reads
// the task event log from its start; listed events are leased to the reader for `lease_seconds`,
// acknowledged ones never come back, and `ack_floor` says up to where everything is acknowledged.

/** The owner of the operator's subscriptions (agent ids always hold ":agent:", so no clash). */
export const OPERATOR_OWNER = 'operator';
export const DEFAULT_LEASE_SECONDS = 30;
export const MIN_LEASE_SECONDS = 5;
export const MAX_LEASE_SECONDS = 3600;
export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;
export const MAX_CONSUME_IDS = 500;
const MAX_STAGE_LENGTH = 64;
const MAX_KEY_LENGTH = 255;

/** The caller as the gateway names it (`Actor` of the proto). */
export interface Actor {
  agentId: string | null;
  operator: boolean;
}

export interface SubscriptionFilters {
  workflowRunId: string | null;
  stage: string | null;
  /** Sorted, distinct; empty = every type. */
  eventTypes: string[];
}

export interface SubscriptionRecord {
  subscriptionId: string;
  /** The agent id, or OPERATOR_OWNER. */
  owner: string;
  filters: SubscriptionFilters;
  leaseSeconds: number;
  /** Every matching event with seq ≤ ackFloor is acknowledged. */
  ackFloor: bigint;
  createdAt: Date;
}

export interface SubscriptionView extends SubscriptionRecord {
  /** Matching events above the floor not yet acknowledged. */
  pendingCount: bigint;
}

/** An event as handed to a subscription: how many times it has been, this time included. */
export interface DeliveredEvent extends TaskEventRecord {
  deliveryCount: number;
}

export interface CreateSubscriptionInput {
  workflowRunId?: string;
  stage?: string;
  eventTypes: string[];
  /** 0 = default. */
  leaseSeconds: number;
  /** '' = none. */
  idempotencyKey: string;
}

export interface ValidCreate {
  filters: SubscriptionFilters;
  leaseSeconds: number;
  idempotencyKey: string | null;
  /** Pins the request under its idempotency key (same key, other request → 422). */
  requestHash: string;
}

export type ConsumeRequest = { kind: 'ids'; eventIds: string[] } | { kind: 'up_to'; eventId: string };

const invalid = (field: string, message: string, value?: unknown) =>
  errors.invalidArgument('validation_failed', message, value === undefined ? { field } : { field, value });

/**
 * Whose subscription this is: the acting agent (also when the operator acts with X-Agent-Id: it
 * then sees what that agent sees), else the operator.
 */
export function ownerOf(actor: Actor): string {
  if (actor.agentId !== null && actor.agentId !== '') return actor.agentId;
  if (actor.operator) return OPERATOR_OWNER;
  throw invalid('actor', 'the caller names no acting agent and is not the operator');
}

/** The agent a run must belong to for this owner (null: the operator, any run). */
export function runOwnerFor(owner: string): string | null {
  return owner === OPERATOR_OWNER ? null : owner;
}

export function validateCreate(input: CreateSubscriptionInput): ValidCreate {
  if (input.workflowRunId !== undefined && input.workflowRunId === '') throw invalid('filters.workflow_run_id', 'workflow_run_id must not be empty');
  if (input.stage !== undefined && (input.stage.length < 1 || input.stage.length > MAX_STAGE_LENGTH)) {
    throw invalid('filters.stage', `stage must be 1–${MAX_STAGE_LENGTH} characters`);
  }
  for (const type of input.eventTypes) {
    if (!isTaskEventType(type)) throw invalid('filters.event_types', `unknown event type ${type} (one of ${TASK_EVENT_TYPES.join(', ')})`, type);
  }
  const leaseSeconds = input.leaseSeconds === 0 ? DEFAULT_LEASE_SECONDS : input.leaseSeconds;
  if (!Number.isInteger(leaseSeconds) || leaseSeconds < MIN_LEASE_SECONDS || leaseSeconds > MAX_LEASE_SECONDS) {
    throw invalid('lease_seconds', `lease_seconds must be ${MIN_LEASE_SECONDS}–${MAX_LEASE_SECONDS} (0 = ${DEFAULT_LEASE_SECONDS})`, input.leaseSeconds);
  }
  if (input.idempotencyKey.length > MAX_KEY_LENGTH) throw errors.invalidArgument('invalid_idempotency_key', `idempotency_key is at most ${MAX_KEY_LENGTH} characters`);
  const filters: SubscriptionFilters = {
    workflowRunId: input.workflowRunId ?? null,
    stage: input.stage ?? null,
    eventTypes: [...new Set(input.eventTypes)].sort(),
  };
  const requestHash = sha256Hex(
    canonicalize({ rpc: 'CreateSubscription', workflow_run_id: filters.workflowRunId, stage: filters.stage, event_types: filters.eventTypes, lease_seconds: leaseSeconds }),
  );
  return { filters, leaseSeconds, idempotencyKey: input.idempotencyKey === '' ? null : input.idempotencyKey, requestHash };
}

/** ListSubscriptionEvents' `limit`: 0 → 50, else 1–200 (400 invalid_limit). */
export function listLimit(limit: number): number {
  if (limit === 0) return DEFAULT_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw errors.invalidArgument('invalid_limit', `limit must be 1–${MAX_LIST_LIMIT}`, { limit });
  }
  return limit;
}

/** Exactly one of event_ids (1–500, duplicates collapse) or up_to (400 validation_failed otherwise). */
export function consumeRequest(eventIds: string[], upTo: string | undefined): ConsumeRequest {
  const hasIds = eventIds.length > 0;
  if (hasIds === (upTo !== undefined)) throw invalid('event_ids', 'send exactly one of event_ids and up_to');
  if (upTo !== undefined) {
    if (upTo === '') throw invalid('up_to', 'up_to must be an event id');
    return { kind: 'up_to', eventId: upTo };
  }
  if (eventIds.length > MAX_CONSUME_IDS) throw invalid('event_ids', `at most ${MAX_CONSUME_IDS} event ids`);
  if (eventIds.some((id) => id === '')) throw invalid('event_ids', 'event ids must not be empty');
  return { kind: 'ids', eventIds: [...new Set(eventIds)] };
}

/**
 * Where the ack floor goes after an acknowledgement: just below the lowest matching event still
 * unacknowledged above it, else up to the highest matching event (everything is acknowledged),
 * else where it is. It never moves back.
 */
export function nextAckFloor(current: bigint, lowestUnacked: bigint | null, highestMatching: bigint | null): bigint {
  const candidate = lowestUnacked !== null ? lowestUnacked - 1n : (highestMatching ?? current);
  return candidate > current ? candidate : current;
}
