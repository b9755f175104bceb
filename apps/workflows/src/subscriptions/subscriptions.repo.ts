import type { Queryable } from '@exchange/db';
import type pg from 'pg';
import type { SubscriptionRecord, ValidCreate } from './subscription';

// task_subscriptions rows (pg, raw SQL) and the one read of workflow_runs the filters need.

interface SubscriptionRow {
  subscription_id: string;
  owner: string;
  filter_run_id: string | null;
  filter_stage: string | null;
  event_types: string[] | null;
  lease_seconds: number;
  ack_floor: string;
  request_hash: string | null;
  created_at: Date;
}

/** A stored subscription and the hash of the request that made it (idempotent replays). */
export interface StoredSubscription {
  record: SubscriptionRecord;
  requestHash: string | null;
}

const COLUMNS = 'subscription_id, owner, filter_run_id, filter_stage, event_types, lease_seconds, ack_floor::text AS ack_floor, request_hash, created_at';

function toStored(row: SubscriptionRow): StoredSubscription {
  return {
    record: {
      subscriptionId: row.subscription_id,
      owner: row.owner,
      filters: { workflowRunId: row.filter_run_id, stage: row.filter_stage, eventTypes: row.event_types ?? [] },
      leaseSeconds: row.lease_seconds,
      ackFloor: BigInt(row.ack_floor),
      createdAt: row.created_at,
    },
    requestHash: row.request_hash,
  };
}

/** Inserts a subscription; null when (owner, idempotency_key) is taken (a concurrent twin won). */
export async function insertSubscription(db: Queryable, id: string, owner: string, v: ValidCreate, now: Date): Promise<StoredSubscription | null> {
  const { rows } = await db.query<SubscriptionRow>(
    `INSERT INTO task_subscriptions (subscription_id, owner, filter_run_id, filter_stage, event_types, lease_seconds, ack_floor, idempotency_key, request_hash, created_at)
     VALUES ($1, $2, $3, $4, $5::text[], $6, 0, $7, $8, $9)
     ON CONFLICT (owner, idempotency_key) DO NOTHING
     RETURNING ${COLUMNS}`,
    [id, owner, v.filters.workflowRunId, v.filters.stage, v.filters.eventTypes, v.leaseSeconds, v.idempotencyKey, v.requestHash, now],
  );
  return rows.length === 0 ? null : toStored(rows[0]);
}

export async function findByIdempotencyKey(db: Queryable, owner: string, key: string): Promise<StoredSubscription | null> {
  const { rows } = await db.query<SubscriptionRow>(`SELECT ${COLUMNS} FROM task_subscriptions WHERE owner = $1 AND idempotency_key = $2`, [owner, key]);
  return rows.length === 0 ? null : toStored(rows[0]);
}

/**
 * The owner's subscription, its row locked until the transaction ends: readers and consumers of
 * one subscription take turns, so two readers never lease the same events at once.
 */
export async function lockSubscription(client: pg.PoolClient, subscriptionId: string, owner: string): Promise<SubscriptionRecord | null> {
  const { rows } = await client.query<SubscriptionRow>(`SELECT ${COLUMNS} FROM task_subscriptions WHERE subscription_id = $1 AND owner = $2 FOR UPDATE`, [
    subscriptionId,
    owner,
  ]);
  return rows.length === 0 ? null : toStored(rows[0]).record;
}

export async function setAckFloor(client: pg.PoolClient, subscriptionId: string, floor: bigint): Promise<void> {
  await client.query('UPDATE task_subscriptions SET ack_floor = $2 WHERE subscription_id = $1', [subscriptionId, floor.toString()]);
}

/** Whether the run exists (and, when `ownerAgentId` is given, belongs to that agent). Read-only. */
export async function runVisible(db: Queryable, workflowRunId: string, ownerAgentId: string | null): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM workflow_runs WHERE workflow_run_id = $1 AND ($2::text IS NULL OR owner_agent_id = $2)', [workflowRunId, ownerAgentId]);
  return rows.length > 0;
}
