// Task event subscriptions over gRPC against PostgreSQL: durable, at least once, in order.
import { workflowsV1 } from '@exchange/proto';
import type { TaskEventInput, TaskEventRecord, TaskEventType } from '../src/task-events/task-event';
import { agent, failureCode, operator, startHarness, type Harness } from './subscriptions-export.harness';

const ALICE = 'test:agent:alice';
const BOB = 'test:agent:bob';

let h: Harness;

beforeAll(async () => {
  h = await startHarness('workflows_subscriptions');
});

afterAll(async () => {
  await h?.close();
});

function ev(owner: string, runId: string, i: number, over: Partial<TaskEventInput> = {}): TaskEventInput {
  return { type: 'task.posted', workflowRunId: runId, ownerAgentId: owner, stage: 'extract', shard: i % 7, taskId: `tsk_${i}`, data: { i }, ...over };
}

async function seed(owner: string, runId: string, count: number, over: Partial<TaskEventInput> = {}): Promise<TaskEventRecord[]> {
  const out: TaskEventRecord[] = [];
  for (let i = 0; i < count; i += 50) {
    out.push(...(await h.record(Array.from({ length: Math.min(50, count - i) }, (_, j) => ev(owner, runId, i + j, over)))));
  }
  return out;
}

async function subscribe(actor: workflowsV1.Actor, over: Partial<workflowsV1.CreateSubscriptionRequest> = {}): Promise<workflowsV1.Subscription> {
  const res = await h.client.createSubscription(workflowsV1.CreateSubscriptionRequest.fromPartial({ actor, ...over }));
  return res.subscription!;
}

const list = (actor: workflowsV1.Actor, subscriptionId: string, limit = 0) => h.client.listSubscriptionEvents({ actor, subscriptionId, limit });
const consume = (actor: workflowsV1.Actor, subscriptionId: string, body: { eventIds?: string[]; upTo?: string }) =>
  h.client.consumeSubscriptionEvents({ actor, subscriptionId, eventIds: body.eventIds ?? [], upTo: body.upTo });

describe('1,000 events consumed in batches', () => {
  it('should hand out every event once, in order, with nothing left after acknowledgement', async () => {
    const run = await h.seedRun(ALICE);
    const other = await h.seedRun(BOB);
    const sub = await subscribe(agent(ALICE));
    expect(sub).toMatchObject({ owner: ALICE, ackFloor: '0', pendingCount: '0', leaseSeconds: 30 });
    const mine: TaskEventRecord[] = [];
    // Bob's events interleave with Alice's: her subscription must never see them.
    for (let batch = 0; batch < 10; batch++) {
      mine.push(...(await seed(ALICE, run, 100)));
      await seed(BOB, other, 7);
    }
    expect(mine).toHaveLength(1000);

    const seen: workflowsV1.TaskEvent[] = [];
    for (;;) {
      const page = await list(agent(ALICE), sub.subscriptionId, 50);
      if (page.events.length === 0) break;
      expect(page.events.length).toBeLessThanOrEqual(50);
      for (const e of page.events) expect(e.deliveryCount).toBe(1);
      seen.push(...page.events);
      const done = await consume(agent(ALICE), sub.subscriptionId, { eventIds: page.events.map((e) => e.eventId) });
      expect(done.acknowledged).toBe(page.events.length);
      // The floor passes the batch (and Bob's events up to Alice's next one), never the next one.
      const floor = BigInt(done.subscription!.ackFloor);
      expect(floor >= BigInt(page.events.at(-1)!.sequence)).toBe(true);
      const next = mine[seen.length];
      if (next) expect(floor < BigInt(next.seq)).toBe(true);
    }
    expect(seen.map((e) => e.eventId)).toEqual(mine.map((e) => e.eventId));
    expect(new Set(seen.map((e) => e.eventId)).size).toBe(1000);
    const seqs = seen.map((e) => BigInt(e.sequence));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i] > seqs[i - 1]).toBe(true);
    expect(seen.every((e) => e.workflowRunId === run)).toBe(true);
    expect(JSON.parse(seen[3].dataJson)).toEqual({ i: 3 });

    const after = await list(agent(ALICE), sub.subscriptionId, 200);
    expect(after.events).toEqual([]);
    expect(after.subscription).toMatchObject({ pendingCount: '0', ackFloor: mine.at(-1)!.seq });
    // Acknowledged rows are folded into the floor, not kept one per event.
    const { rows } = await h.sql.query('SELECT count(*)::int AS n FROM subscription_deliveries WHERE subscription_id = $1', [sub.subscriptionId]);
    expect(rows[0].n).toBe(0);
  });
});

describe('a subscriber that never acknowledges', () => {
  it('should get every event again once the lease has passed, and a second reader none meanwhile', async () => {
    const run = await h.seedRun(ALICE);
    const sub = await subscribe(agent(ALICE), { leaseSeconds: 5, filters: { workflowRunId: run, eventTypes: [] } });
    const events = await seed(ALICE, run, 20);

    const first = await list(agent(ALICE), sub.subscriptionId, 200);
    expect(first.events.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(first.events.every((e) => e.deliveryCount === 1)).toBe(true);
    expect(first.subscription).toMatchObject({ ackFloor: '0', pendingCount: '20' });

    expect((await list(agent(ALICE), sub.subscriptionId, 200)).events).toEqual([]);
    h.advance(4_999);
    expect((await list(agent(ALICE), sub.subscriptionId, 200)).events).toEqual([]);
    h.advance(2);
    const again = await list(agent(ALICE), sub.subscriptionId, 200);
    expect(again.events.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(again.events.every((e) => e.deliveryCount === 2)).toBe(true);
    expect(again.subscription).toMatchObject({ ackFloor: '0', pendingCount: '20' });
  });

  it('should never give two concurrent readers the same events', async () => {
    const run = await h.seedRun(ALICE);
    const sub = await subscribe(agent(ALICE), { filters: { workflowRunId: run, eventTypes: [] } });
    const events = await seed(ALICE, run, 40);
    const pages = await Promise.all([1, 2, 3, 4].map(() => list(agent(ALICE), sub.subscriptionId, 15)));
    const ids = pages.flatMap((p) => p.events.map((e) => e.eventId));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(events.map((e) => e.eventId).sort());
  });
});

describe('restart', () => {
  it('should still list the unacknowledged events after the service restarts, and not the acknowledged ones', async () => {
    const run = await h.seedRun(ALICE);
    const sub = await subscribe(agent(ALICE), { leaseSeconds: 5, filters: { workflowRunId: run, eventTypes: [] } });
    const events = await seed(ALICE, run, 10);
    const listed = await list(agent(ALICE), sub.subscriptionId, 10);
    expect(listed.events).toHaveLength(10);
    await consume(agent(ALICE), sub.subscriptionId, { eventIds: events.slice(0, 4).map((e) => e.eventId) });

    await h.restart();
    h.advance(6_000);
    const after = await list(agent(ALICE), sub.subscriptionId, 200);
    expect(after.events.map((e) => e.eventId)).toEqual(events.slice(4).map((e) => e.eventId));
    expect(after.events.every((e) => e.deliveryCount === 2)).toBe(true);
    expect(after.subscription).toMatchObject({ subscriptionId: sub.subscriptionId, ackFloor: events[3].seq, pendingCount: '6' });
  });
});

describe('consume', () => {
  let run: string;
  let sub: workflowsV1.Subscription;
  let events: TaskEventRecord[];

  beforeAll(async () => {
    run = await h.seedRun(ALICE);
    sub = await subscribe(agent(ALICE), { leaseSeconds: 5, filters: { workflowRunId: run, eventTypes: [] } });
    events = await seed(ALICE, run, 10);
  });

  it('should acknowledge everything up to an event with up_to', async () => {
    const res = await consume(agent(ALICE), sub.subscriptionId, { upTo: events[4].eventId });
    expect(res.acknowledged).toBe(5);
    expect(res.subscription).toMatchObject({ ackFloor: events[4].seq, pendingCount: '5' });
    const page = await list(agent(ALICE), sub.subscriptionId, 200);
    expect(page.events.map((e) => e.eventId)).toEqual(events.slice(5).map((e) => e.eventId));
    expect(await consume(agent(ALICE), sub.subscriptionId, { upTo: events[2].eventId })).toMatchObject({ acknowledged: 0 });
  });

  it('should acknowledge ids idempotently, the floor waiting for the gap below them', async () => {
    const res = await consume(agent(ALICE), sub.subscriptionId, { eventIds: [events[6].eventId, events[7].eventId] });
    expect(res.acknowledged).toBe(2);
    expect(res.subscription).toMatchObject({ ackFloor: events[4].seq, pendingCount: '3' });
    const again = await consume(agent(ALICE), sub.subscriptionId, { eventIds: [events[7].eventId, events[6].eventId] });
    expect(again).toMatchObject({ acknowledged: 0, subscription: { ackFloor: events[4].seq, pendingCount: '3' } });
  });

  it('should refuse an unknown id with 404 and acknowledge nothing of the request', async () => {
    expect(await failureCode(consume(agent(ALICE), sub.subscriptionId, { eventIds: [events[5].eventId, 'evt_nope'] }))).toBe('task_event_not_found');
    const bobRun = await h.seedRun(BOB);
    const [bobs] = await seed(BOB, bobRun, 1);
    expect(await failureCode(consume(agent(ALICE), sub.subscriptionId, { eventIds: [events[5].eventId, bobs.eventId] }))).toBe('task_event_not_found');
    expect(await failureCode(consume(agent(ALICE), sub.subscriptionId, { upTo: bobs.eventId }))).toBe('task_event_not_found');
    h.advance(6_000);
    const page = await list(agent(ALICE), sub.subscriptionId, 200);
    expect(page.events.map((e) => e.eventId)).toEqual([events[5].eventId, events[8].eventId, events[9].eventId]);
    expect(page.subscription).toMatchObject({ ackFloor: events[4].seq, pendingCount: '3' });
  });

  it('should move the floor over the acknowledged ids once the gap is acknowledged', async () => {
    const res = await consume(agent(ALICE), sub.subscriptionId, { eventIds: [events[5].eventId] });
    expect(res).toMatchObject({ acknowledged: 1, subscription: { ackFloor: events[7].seq, pendingCount: '2' } });
    const last = await consume(agent(ALICE), sub.subscriptionId, { upTo: events[9].eventId });
    expect(last).toMatchObject({ acknowledged: 2, subscription: { ackFloor: events[9].seq, pendingCount: '0' } });
  });

  it('should take exactly one of event_ids and up_to', async () => {
    expect(await failureCode(consume(agent(ALICE), sub.subscriptionId, {}))).toBe('validation_failed');
    expect(await failureCode(consume(agent(ALICE), sub.subscriptionId, { eventIds: [events[0].eventId], upTo: events[1].eventId }))).toBe('validation_failed');
  });
});

describe('filters and owners', () => {
  // Owners of their own: the earlier tests' events would fill the first pages.
  const ALICE = 'test:agent:carol';
  const BOB = 'test:agent:dave';
  let aliceRun: string;
  let aliceOther: string;
  let bobRun: string;

  beforeAll(async () => {
    aliceRun = await h.seedRun(ALICE);
    aliceOther = await h.seedRun(ALICE);
    bobRun = await h.seedRun(BOB);
    const types: TaskEventType[] = ['run.started', 'stage.started', 'task.posted', 'task.settled'];
    await h.record([
      ...types.map((type, i) => ev(ALICE, aliceRun, i, { type, stage: i === 0 ? undefined : 'extract' })),
      ...types.map((type, i) => ev(ALICE, aliceRun, 10 + i, { type, stage: 'summarize' })),
      ...types.map((type, i) => ev(ALICE, aliceOther, 20 + i, { type })),
      ...types.map((type, i) => ev(BOB, bobRun, 30 + i, { type })),
    ]);
  });

  const dataOf = async (actor: workflowsV1.Actor, filters: Partial<workflowsV1.SubscriptionFilters>) => {
    const sub = await subscribe(actor, { filters: { eventTypes: [], ...filters } });
    const page = await list(actor, sub.subscriptionId, 200);
    return page.events.filter((e) => [aliceRun, aliceOther, bobRun].includes(e.workflowRunId)).map((e) => (JSON.parse(e.dataJson) as { i: number }).i);
  };

  it('should narrow by run, stage and event types', async () => {
    expect(await dataOf(agent(ALICE), { workflowRunId: aliceRun })).toEqual([0, 1, 2, 3, 10, 11, 12, 13]);
    expect(await dataOf(agent(ALICE), { workflowRunId: aliceRun, stage: 'summarize' })).toEqual([10, 11, 12, 13]);
    expect(await dataOf(agent(ALICE), { eventTypes: ['task.settled', 'run.started'] })).toEqual([0, 3, 10, 13, 20, 23]);
    expect(await dataOf(agent(ALICE), { stage: 'extract', eventTypes: ['task.posted'] })).toEqual([2, 22]);
  });

  it('should show an agent only its own runs, and the operator every run', async () => {
    expect(await dataOf(agent(BOB), {})).toEqual([30, 31, 32, 33]);
    expect(await dataOf(operator, { eventTypes: ['run.started'] })).toEqual([0, 10, 20, 30]);
    expect(await dataOf(operator, { workflowRunId: bobRun })).toEqual([30, 31, 32, 33]);
  });

  it('should refuse another agent’s run and an unknown run with 404', async () => {
    expect(await failureCode(subscribe(agent(BOB), { filters: { workflowRunId: aliceRun, eventTypes: [] } }))).toBe('workflow_run_not_found');
    expect(await failureCode(subscribe(operator, { filters: { workflowRunId: 'run_unknown', eventTypes: [] } }))).toBe('workflow_run_not_found');
  });

  it('should refuse another owner’s subscription with 404', async () => {
    const sub = await subscribe(agent(ALICE));
    expect(await failureCode(list(agent(BOB), sub.subscriptionId))).toBe('subscription_not_found');
    expect(await failureCode(list(operator, sub.subscriptionId))).toBe('subscription_not_found');
    expect(await failureCode(consume(agent(BOB), sub.subscriptionId, { upTo: 'evt_x' }))).toBe('subscription_not_found');
    expect(await failureCode(list(agent(ALICE), 'sub_unknown'))).toBe('subscription_not_found');
  });

  it('should refuse unknown event types, a bad lease and a bad limit with 400', async () => {
    expect(await failureCode(subscribe(agent(ALICE), { filters: { eventTypes: ['task.exploded'] } }))).toBe('validation_failed');
    expect(await failureCode(subscribe(agent(ALICE), { leaseSeconds: 4 }))).toBe('validation_failed');
    const sub = await subscribe(agent(ALICE));
    expect(await failureCode(list(agent(ALICE), sub.subscriptionId, 201))).toBe('invalid_limit');
  });

  it('should replay the same request under the same idempotency key and refuse another one', async () => {
    const req = { filters: { workflowRunId: aliceRun, eventTypes: ['task.settled'] }, idempotencyKey: 'sub-once' };
    const first = await h.client.createSubscription(workflowsV1.CreateSubscriptionRequest.fromPartial({ actor: agent(ALICE), ...req }));
    const again = await h.client.createSubscription(workflowsV1.CreateSubscriptionRequest.fromPartial({ actor: agent(ALICE), ...req }));
    expect(first.idempotentReplayed).toBe(false);
    expect(again).toMatchObject({ idempotentReplayed: true, subscription: { subscriptionId: first.subscription!.subscriptionId } });
    expect(await failureCode(subscribe(agent(ALICE), { ...req, leaseSeconds: 60 }))).toBe('idempotency_key_reused');
    // The key is the owner's: Bob may use the same one.
    const bobs = await subscribe(agent(BOB), { idempotencyKey: 'sub-once' });
    expect(bobs.subscriptionId).not.toBe(first.subscription!.subscriptionId);
  });
});
