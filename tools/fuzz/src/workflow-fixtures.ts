// A real workflow run, task event subscriptions and task events, so that fuzzed /v1/workflows
// requests name a run, a subscription and events that exist (2xx, the owner's rules, the lease
// and ack floor) and not only 404s. A run is tiny (2 stages × 2 shards × 1 CREDIT): its budget is
// only checked against the owner's balance, nothing is held when it is created.
import type { ExchangeClient } from '@exchange/sdk';
import type { Pools } from './id-pools';
import type { Party, Step } from './fixture-kit';

/** The workflow pools setup fills. */
export type WorkflowPools = Required<Pick<Pools, 'workflowRun' | 'subscription' | 'taskEvent'>>;

export interface WorkflowContext {
  /** Per signing agent, the run it owns, its subscription and that subscription's events. */
  actorPools: ReadonlyMap<string, Pools>;
}

export interface WorkflowFixtureOptions {
  operator: ExchangeClient;
  /** The runs' owners: signing agents with at least 4 CREDIT available each. */
  owners: Party[];
  pools: WorkflowPools;
  namespace: string;
  step: Step;
  /** Waits between event polls (tests pass a no-op). */
  sleep?: (ms: number) => Promise<void>;
}

const DAY_SECONDS = 86_400;
/** The shortest lease: events the fixture lists are handed out again to fuzzed reads soon after. */
const LEASE_SECONDS = 5;
const EVENT_POLLS = 10;

const shardContract = (title: string) => ({
  title,
  tags: ['fuzz'],
  budget: { amount: '1', currency: 'CREDIT' },
  verificationMode: 'buyer' as const,
  acceptanceCriteria: 'anything',
  deadlineSeconds: DAY_SECONDS,
});

/** One owner's run, its subscription and events; the run's id (null when it could not be made). */
async function ownRun(o: WorkflowFixtureOptions, owner: Party, own: WorkflowPools, sleep: (ms: number) => Promise<void>): Promise<string | null> {
  const { pools, namespace: ns, step } = o;
  const run = await step(`workflow run of ${owner.agentId}`, () =>
    owner.client.workflows.createRun({
      template: 'fuzz-pipeline',
      stages: [
        { name: 'extract', shards: 2, contract: shardContract('Fuzz extract shard') },
        { name: 'review', shards: 2, contract: shardContract('Fuzz review shard') },
      ],
      maxShardAttempts: 2,
      idempotencyKey: `${ns}-workflow-run-${owner.agentId}`,
    }),
  );
  if (!run) return null;
  pools.workflowRun.push(run.workflow_run_id);
  own.workflowRun.push(run.workflow_run_id);
  const sub = await step(`workflow subscription of ${owner.agentId}`, () =>
    owner.client.workflows.createSubscription({ workflowRunId: run.workflow_run_id, leaseSeconds: LEASE_SECONDS, idempotencyKey: `${ns}-workflow-sub-${owner.agentId}` }),
  );
  if (!sub) return run.workflow_run_id;
  pools.subscription.push(sub.subscription_id);
  own.subscription.push(sub.subscription_id);
  // The run starts (run.started, stage.started, task.posted…) just after it is created: poll until
  // the log has its events. An empty list leases nothing.
  await step(`workflow task events of ${owner.agentId}`, async () => {
    for (let i = 0; i < EVENT_POLLS; i++) {
      const page = await owner.client.workflows.listEvents(sub.subscription_id, 50);
      if (page.data.length > 0) {
        for (const e of page.data) {
          pools.taskEvent.push(e.event_id);
          own.taskEvent.push(e.event_id);
        }
        return;
      }
      await sleep(500);
    }
    throw new Error(`no task event of ${run.workflow_run_id} after ${EVENT_POLLS} polls`);
  });
  return run.workflow_run_id;
}

/**
 * A run per owner (each signing agent: a signed request names its own run, subscription and
 * events), and one subscription of the operator (on the first run).
 */
export async function createWorkflowFixtures(o: WorkflowFixtureOptions): Promise<WorkflowContext> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const actorPools = new Map<string, Pools>();
  let first: string | null = null;
  for (const owner of o.owners) {
    const own: WorkflowPools = { workflowRun: [], subscription: [], taskEvent: [] };
    actorPools.set(owner.agentId, own);
    const run = await ownRun(o, owner, own, sleep);
    first ??= run;
  }
  // The operator's own (it reads only subscriptions it created): operator requests reach one too.
  const runId = first;
  if (runId) {
    const opSub = await o.step('operator workflow subscription', () =>
      o.operator.workflows.createSubscription({ workflowRunId: runId, leaseSeconds: LEASE_SECONDS, idempotencyKey: `${o.namespace}-workflow-sub-operator` }),
    );
    if (opSub) o.pools.subscription.push(opSub.subscription_id);
  }
  return { actorPools };
}
