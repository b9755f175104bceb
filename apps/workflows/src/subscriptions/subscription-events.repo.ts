import type { Queryable } from '@exchange/db';
import type pg from 'pg';
import type { TaskEventType } from '../task-events/task-event';
import { OPERATOR_OWNER, type DeliveredEvent, type SubscriptionRecord } from './subscription';

// A subscription's view of the task event log: which events match it, which are leased or
// acknowledged (subscription_deliveries), and the ack floor. Every query runs in the transaction
// that holds the subscription row (lockSubscription), so `ack_floor` cannot move underneath it.

interface EventRow {
  seq: string;
  event_id: string;
  type: string;
  workflow_run_id: string;
  owner_agent_id: string;
  stage: string | null;
  shard: number | null;
  task_id: string | null;
  contract_id: string | null;
  data: Record<string, unknown>;
  occurred_at: Date;
  delivery_count: number;
}

const EVENT_COLUMNS = `e.seq::text AS seq, e.event_id, e.type, e.workflow_run_id, e.owner_agent_id, e.stage, e.shard, e.task_id, e.contract_id, e.data, e.occurred_at`;

/**
 * THE matching rule (list, consume and pending count all use it): the subscription's owner and
 * filters as a WHERE over `task_events e`, its values appended to `params`. An agent's
 * subscription sees only events of runs it owns; the operator's sees all. With `aboveFloor`,
 * only events above the ack floor (the rest are acknowledged).
 */
export function matchingEvents(sub: SubscriptionRecord, params: unknown[], opts: { aboveFloor: boolean }): string {
  const p = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const parts: string[] = [];
  if (opts.aboveFloor) parts.push(`e.seq > ${p(sub.ackFloor.toString())}::bigint`);
  if (sub.owner !== OPERATOR_OWNER) parts.push(`e.owner_agent_id = ${p(sub.owner)}`);
  if (sub.filters.workflowRunId !== null) parts.push(`e.workflow_run_id = ${p(sub.filters.workflowRunId)}`);
  if (sub.filters.stage !== null) parts.push(`e.stage = ${p(sub.filters.stage)}`);
  if (sub.filters.eventTypes.length > 0) parts.push(`e.type = ANY(${p(sub.filters.eventTypes)}::text[])`);
  return parts.length === 0 ? 'TRUE' : parts.join(' AND ');
}

/** Joins each event's delivery row of this subscription as `d` (absent: never handed out). */
function deliveriesOf(sub: SubscriptionRecord, params: unknown[]): string {
  params.push(sub.subscriptionId);
  return `LEFT JOIN subscription_deliveries d ON d.subscription_id = $${params.length} AND d.seq = e.seq`;
}

function toDelivered(row: EventRow): DeliveredEvent {
  return {
    eventId: row.event_id,
    seq: row.seq,
    type: row.type as TaskEventType,
    workflowRunId: row.workflow_run_id,
    ownerAgentId: row.owner_agent_id,
    stage: row.stage,
    shard: row.shard,
    taskId: row.task_id,
    contractId: row.contract_id,
    data: row.data,
    occurredAt: row.occurred_at,
    deliveryCount: row.delivery_count,
  };
}

/**
 * Leases up to `limit` matching events that are neither acknowledged nor under a live lease, in
 * seq order, until `leasedUntil`; each one's delivery count goes up by one.
 */
export async function leaseEvents(client: pg.PoolClient, sub: SubscriptionRecord, now: Date, leasedUntil: Date, limit: number): Promise<DeliveredEvent[]> {
  const params: unknown[] = [];
  const join = deliveriesOf(sub, params);
  const where = matchingEvents(sub, params, { aboveFloor: true });
  params.push(now, limit, leasedUntil);
  const n = params.length;
  const { rows } = await client.query<EventRow>(
    `WITH picked AS (
       SELECT e.seq FROM task_events e ${join}
       WHERE ${where} AND d.acked_at IS NULL AND (d.leased_until IS NULL OR d.leased_until <= $${n - 2})
       ORDER BY e.seq LIMIT $${n - 1}
     ), leased AS (
       INSERT INTO subscription_deliveries (subscription_id, seq, delivery_count, leased_until)
       SELECT $1, seq, 1, $${n} FROM picked
       ON CONFLICT (subscription_id, seq) DO UPDATE
         SET delivery_count = subscription_deliveries.delivery_count + 1, leased_until = EXCLUDED.leased_until
       RETURNING seq, delivery_count
     )
     SELECT ${EVENT_COLUMNS}, l.delivery_count FROM leased l JOIN task_events e ON e.seq = l.seq ORDER BY e.seq`,
    params,
  );
  return rows.map(toDelivered);
}

/** Matching events above the floor not yet acknowledged (leased ones included). */
export async function pendingCount(db: Queryable, sub: SubscriptionRecord): Promise<bigint> {
  const params: unknown[] = [];
  const join = deliveriesOf(sub, params);
  const where = matchingEvents(sub, params, { aboveFloor: true });
  const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM task_events e ${join} WHERE ${where} AND d.acked_at IS NULL`, params);
  return BigInt(rows[0].n);
}

/** The seq of each given event id that is a matching event of the subscription (at any seq). */
export async function matchingSeqs(client: pg.PoolClient, sub: SubscriptionRecord, eventIds: string[]): Promise<Map<string, bigint>> {
  const params: unknown[] = [eventIds];
  const where = matchingEvents(sub, params, { aboveFloor: false });
  const { rows } = await client.query<{ event_id: string; seq: string }>(`SELECT e.event_id, e.seq::text AS seq FROM task_events e WHERE e.event_id = ANY($1::text[]) AND ${where}`, params);
  return new Map(rows.map((r) => [r.event_id, BigInt(r.seq)]));
}

/** Marks these seqs acknowledged (they must be matching and above the floor); returns how many were not already. */
export async function acknowledgeSeqs(client: pg.PoolClient, subscriptionId: string, seqs: bigint[], now: Date): Promise<number> {
  if (seqs.length === 0) return 0;
  const { rowCount } = await client.query(
    `INSERT INTO subscription_deliveries (subscription_id, seq, delivery_count, leased_until, acked_at)
     SELECT $1, s, 1, $3, $3 FROM unnest($2::bigint[]) AS s
     ON CONFLICT (subscription_id, seq) DO UPDATE SET acked_at = EXCLUDED.acked_at WHERE subscription_deliveries.acked_at IS NULL`,
    [subscriptionId, seqs.map(String), now],
  );
  return rowCount ?? 0;
}

/** Acknowledges every matching event above the floor up to `seq`; returns how many were not already. */
export async function acknowledgeUpTo(client: pg.PoolClient, sub: SubscriptionRecord, seq: bigint, now: Date): Promise<number> {
  const params: unknown[] = [sub.subscriptionId, now, seq.toString()];
  const where = matchingEvents(sub, params, { aboveFloor: true });
  const { rowCount } = await client.query(
    `INSERT INTO subscription_deliveries (subscription_id, seq, delivery_count, leased_until, acked_at)
     SELECT $1, e.seq, 1, $2, $2 FROM task_events e WHERE ${where} AND e.seq <= $3::bigint
     ON CONFLICT (subscription_id, seq) DO UPDATE SET acked_at = EXCLUDED.acked_at WHERE subscription_deliveries.acked_at IS NULL`,
    params,
  );
  return rowCount ?? 0;
}

/**
 * The lowest matching unacknowledged seq above the floor, and the highest matching seq above it.
 * ONE statement, so one snapshot: an event committed meanwhile cannot be counted as the highest
 * without having been seen as unacknowledged (the floor would skip it).
 */
export async function floorBounds(client: pg.PoolClient, sub: SubscriptionRecord): Promise<{ lowestUnacked: bigint | null; highestMatching: bigint | null }> {
  const params: unknown[] = [];
  const join = deliveriesOf(sub, params);
  const where = matchingEvents(sub, params, { aboveFloor: true });
  const { rows } = await client.query<{ lowest: string | null; highest: string | null }>(
    `SELECT (min(e.seq) FILTER (WHERE d.acked_at IS NULL))::text AS lowest, max(e.seq)::text AS highest FROM task_events e ${join} WHERE ${where}`,
    params,
  );
  const big = (v: string | null) => (v === null ? null : BigInt(v));
  return { lowestUnacked: big(rows[0].lowest), highestMatching: big(rows[0].highest) };
}

/** Delivery rows at or below the floor say nothing the floor does not: dropped. */
export async function dropDeliveriesUpTo(client: pg.PoolClient, subscriptionId: string, floor: bigint): Promise<void> {
  await client.query('DELETE FROM subscription_deliveries WHERE subscription_id = $1 AND seq <= $2::bigint', [subscriptionId, floor.toString()]);
}
