// Workflow bodies the schema alone seldom makes acceptable: a run the acting agent owns with
// unique stage names, one currency and a budget its balance covers (201: the engine posts shard
// contracts), a subscription to its own run, and a consume of its own subscription's events
// (exactly one of `event_ids` and `up_to`). Schema-generated ones mostly stop at
// `duplicate_stage_name`, `insufficient_funds`, `workflow_run_not_found` or `task_event_not_found`.
import fc from 'fast-check';
import type { Pools } from './id-pools';

/** Some task event types (the schema's enum has them all; these are the ones a new run emits). */
const EVENT_TYPES = ['run.started', 'stage.started', 'task.posted', 'task.settled', 'run.completed'];

const strings = (values: unknown[] | undefined) => (values ?? []).filter((v): v is string => typeof v === 'string');

/** POST /v1/workflows/runs for `signerId`: 1–2 stages × 1–2 shards of 0.5 or 1 CREDIT (4 at most). */
export function runBody(signerId: string): fc.Arbitrary<unknown> {
  const contract = fc.record({
    title: fc.constantFrom('Fuzz shard', 'Traduire un fragment', '片段'),
    budget: fc.record({ amount: fc.constantFrom('0.5', '1'), currency: fc.constant('CREDIT') }),
    verification_mode: fc.constantFrom('buyer', 'auto'),
    // Optional in the schema, yet the workflows service refuses a run without it (400).
    acceptance_criteria: fc.constantFrom('anything', 'Every sentence translated'),
    deadline_seconds: fc.constantFrom(60, 3600, 86_400, 2_592_000),
  });
  const stage = (name: string) => fc.record({ name: fc.constant(name), shards: fc.integer({ min: 1, max: 2 }), contract });
  return fc
    .record({
      // Mostly named: the operator must name the owner (an agent may leave it out).
      owner: fc.nat({ max: 3 }).map((n) => n > 0),
      stages: fc.oneof(fc.tuple(stage('extract')), fc.tuple(stage('extract'), stage('review'))),
      attempts: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
      key: fc.option(fc.uuid(), { nil: undefined }),
    })
    .map((v) => ({
      ...(v.owner ? { owner_agent_id: signerId } : {}),
      template: 'fuzz-pipeline',
      stages: v.stages,
      ...(v.attempts ? { max_shard_attempts: v.attempts } : {}),
      ...(v.key ? { idempotency_key: `fuzz-${v.key}` } : {}),
    }));
}

/** POST /v1/workflows/tasks/subscriptions on the signer's own run, or null when it has none. */
export function subscriptionBody(own: Pools): fc.Arbitrary<unknown> | null {
  const runs = strings(own.workflowRun);
  if (runs.length === 0) return null;
  return fc
    .record({
      run: fc.constantFrom(...runs),
      stage: fc.option(fc.constantFrom('extract', 'review', 'nope'), { nil: undefined }),
      types: fc.option(fc.subarray(EVENT_TYPES), { nil: undefined }),
      lease: fc.option(fc.integer({ min: 5, max: 3600 }), { nil: undefined }),
    })
    .map((v) => ({
      filters: { workflow_run_id: v.run, ...(v.stage ? { stage: v.stage } : {}), ...(v.types ? { event_types: v.types } : {}) },
      ...(v.lease ? { lease_seconds: v.lease } : {}),
    }));
}

/** POST …/events/consume with the signer's own events, or null when it has none. */
export function consumeBody(own: Pools): fc.Arbitrary<unknown> | null {
  const events = strings(own.taskEvent);
  if (events.length === 0) return null;
  return fc.oneof(
    fc.subarray(events, { minLength: 1 }).map((ids) => ({ event_ids: ids })),
    fc.constantFrom(...events).map((id) => ({ up_to: id })),
  );
}
