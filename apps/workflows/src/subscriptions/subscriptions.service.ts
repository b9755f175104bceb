import { withTransaction } from '@exchange/db';
import { errors, newId } from '@exchange/platform';
import type pg from 'pg';
import type { WorkflowsRuntime } from '../service/runtime';
import * as events from './subscription-events.repo';
import * as repo from './subscriptions.repo';
import {
  consumeRequest,
  listLimit,
  nextAckFloor,
  ownerOf,
  runOwnerFor,
  validateCreate,
  type Actor,
  type CreateSubscriptionInput,
  type DeliveredEvent,
  type SubscriptionRecord,
  type SubscriptionView,
} from './subscription';

export type SubscriptionsDeps = Pick<WorkflowsRuntime, 'pool' | 'clock'>;

/** Task event subscriptions: create, list (lease) and consume (acknowledge). */
export class SubscriptionsService {
  constructor(private readonly deps: SubscriptionsDeps) {}

  /** A new subscription from the start of the log; the same key and request again → the same one. */
  async create(input: CreateSubscriptionInput, actor: Actor): Promise<{ subscription: SubscriptionView; replayed: boolean }> {
    const owner = ownerOf(actor);
    const valid = validateCreate(input);
    const runId = valid.filters.workflowRunId;
    if (runId !== null && !(await repo.runVisible(this.deps.pool, runId, runOwnerFor(owner)))) throw errors.notFound('workflow_run', runId);
    if (valid.idempotencyKey !== null) {
      const earlier = await repo.findByIdempotencyKey(this.deps.pool, owner, valid.idempotencyKey);
      if (earlier !== null) return this.replay(earlier, valid.requestHash);
    }
    const stored = await repo.insertSubscription(this.deps.pool, newId('sub'), owner, valid, this.deps.clock());
    if (stored === null) {
      // A concurrent request with the same key inserted first: answer as its replay.
      const twin = await repo.findByIdempotencyKey(this.deps.pool, owner, valid.idempotencyKey as string);
      if (twin === null) throw new Error('idempotency conflict without a stored subscription');
      return this.replay(twin, valid.requestHash);
    }
    return { subscription: await this.view(this.deps.pool, stored.record), replayed: false };
  }

  /** Leases the next unacknowledged, unleased matching events (seq order) to this reader. */
  async listEvents(subscriptionId: string, actor: Actor, limit: number): Promise<{ events: DeliveredEvent[]; subscription: SubscriptionView }> {
    const owner = ownerOf(actor);
    const size = listLimit(limit);
    return withTransaction(this.deps.pool, async (client) => {
      const sub = await this.locked(client, subscriptionId, owner);
      const now = this.deps.clock();
      const leasedUntil = new Date(now.getTime() + sub.leaseSeconds * 1000);
      const leased = await events.leaseEvents(client, sub, now, leasedUntil, size);
      return { events: leased, subscription: await this.view(client, sub) };
    });
  }

  /**
   * Acknowledges `event_ids` or everything `up_to` one event; every id must be a matching event of
   * the subscription (else 404 task_event_not_found and nothing is acknowledged). Then the ack
   * floor moves up as far as the acknowledged events allow.
   */
  async consume(subscriptionId: string, actor: Actor, eventIds: string[], upTo: string | undefined): Promise<{ acknowledged: number; subscription: SubscriptionView }> {
    const owner = ownerOf(actor);
    const request = consumeRequest(eventIds, upTo);
    return withTransaction(this.deps.pool, async (client) => {
      const sub = await this.locked(client, subscriptionId, owner);
      const ids = request.kind === 'ids' ? request.eventIds : [request.eventId];
      const seqs = await events.matchingSeqs(client, sub, ids);
      const missing = ids.filter((id) => !seqs.has(id));
      if (missing.length > 0) {
        throw errors.notFound('task_event', missing[0]);
      }
      const now = this.deps.clock();
      let acknowledged: number;
      if (request.kind === 'ids') {
        const aboveFloor = [...seqs.values()].filter((seq) => seq > sub.ackFloor);
        acknowledged = await events.acknowledgeSeqs(client, sub.subscriptionId, aboveFloor, now);
      } else {
        acknowledged = await events.acknowledgeUpTo(client, sub, seqs.get(request.eventId) as bigint, now);
      }
      const bounds = await events.floorBounds(client, sub);
      const floor = nextAckFloor(sub.ackFloor, bounds.lowestUnacked, bounds.highestMatching);
      if (floor !== sub.ackFloor) {
        await repo.setAckFloor(client, sub.subscriptionId, floor);
        await events.dropDeliveriesUpTo(client, sub.subscriptionId, floor);
      }
      return { acknowledged, subscription: await this.view(client, { ...sub, ackFloor: floor }) };
    });
  }

  private async locked(client: pg.PoolClient, subscriptionId: string, owner: string): Promise<SubscriptionRecord> {
    const sub = await repo.lockSubscription(client, subscriptionId, owner);
    if (sub === null) throw errors.notFound('subscription', subscriptionId);
    return sub;
  }

  private async view(db: pg.Pool | pg.PoolClient, sub: SubscriptionRecord): Promise<SubscriptionView> {
    return { ...sub, pendingCount: await events.pendingCount(db, sub) };
  }

  private async replay(stored: repo.StoredSubscription, requestHash: string): Promise<{ subscription: SubscriptionView; replayed: boolean }> {
    if (stored.requestHash !== requestHash) throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request');
    return { subscription: await this.view(this.deps.pool, stored.record), replayed: true };
  }
}
