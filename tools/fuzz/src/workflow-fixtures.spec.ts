import type { ExchangeClient } from '@exchange/sdk';
import { CaseStream } from './case-stream';
import type { CaseContext } from './cases';
import type { JsonSchema } from './openapi';
import { operationsOf } from './openapi';
import { createWorkflowFixtures, type WorkflowPools } from './workflow-fixtures';

// A stand-in for client.workflows that records what setup asked for (the real calls are made
// against a live exchange by `npm run fuzz`).
function fakeClient(name: string, calls: string[], opts: { emptyPolls?: number; failRun?: boolean } = {}): ExchangeClient {
  let polls = 0;
  const workflows = {
    createRun: async (input: { stages: Array<{ shards: number; contract: { budget: { amount: string } } }> }) => {
      calls.push(`${name} createRun ${input.stages.map((s) => `${s.shards}×${s.contract.budget.amount}`).join(',')}`);
      if (opts.failRun) throw new Error('insufficient_funds');
      return { workflow_run_id: 'run_1' };
    },
    createSubscription: async (input: { workflowRunId?: string; leaseSeconds?: number }) => {
      calls.push(`${name} createSubscription ${input.workflowRunId} lease ${input.leaseSeconds}`);
      return { subscription_id: `sub_${name}` };
    },
    listEvents: async (id: string) => {
      calls.push(`${name} listEvents ${id}`);
      return { data: polls++ < (opts.emptyPolls ?? 0) ? [] : [{ event_id: 'evt_1' }, { event_id: 'evt_2' }] };
    },
  };
  return { workflows } as unknown as ExchangeClient;
}

async function setup(opts: { emptyPolls?: number; failRun?: boolean } = {}, others: string[] = []) {
  const calls: string[] = [];
  const skipped: string[] = [];
  const pools: WorkflowPools = { workflowRun: [], subscription: [], taskEvent: [] };
  const step = async <T>(name: string, fn: () => Promise<T>) => {
    try {
      return await fn();
    } catch (err) {
      skipped.push(`${name}: ${(err as Error).message}`);
      return null;
    }
  };
  const ctx = await createWorkflowFixtures({
    operator: fakeClient('operator', calls),
    owners: [{ agentId: 'fuzz:agent:buyer', client: fakeClient('buyer', calls, opts) }, ...others.map((n) => ({ agentId: `fuzz:agent:${n}`, client: fakeClient(n, calls) }))],
    pools,
    namespace: 'fuzz-x',
    step,
    sleep: async () => undefined,
  });
  return { calls, skipped, pools, ctx };
}

describe('createWorkflowFixtures', () => {
  it('makes a tiny run, a subscription of the owner and one of the operator, and lists the events once there are some', async () => {
    const { calls, skipped, pools, ctx } = await setup({ emptyPolls: 2 });
    expect(calls).toEqual([
      'buyer createRun 2×1,2×1',
      'buyer createSubscription run_1 lease 5',
      'buyer listEvents sub_buyer',
      'buyer listEvents sub_buyer',
      'buyer listEvents sub_buyer',
      'operator createSubscription run_1 lease 5',
    ]);
    expect(skipped).toEqual([]);
    expect(pools).toEqual({ workflowRun: ['run_1'], subscription: ['sub_buyer', 'sub_operator'], taskEvent: ['evt_1', 'evt_2'] });
    // Only what the owner may act on is its own (the operator's subscription is not).
    expect(ctx.actorPools.get('fuzz:agent:buyer')).toEqual({ workflowRun: ['run_1'], subscription: ['sub_buyer'], taskEvent: ['evt_1', 'evt_2'] });
  });

  it('gives every owner a run, a subscription and events of its own', async () => {
    const { pools, ctx } = await setup({}, ['seller']);
    expect(pools.subscription).toEqual(['sub_buyer', 'sub_seller', 'sub_operator']);
    expect(ctx.actorPools.get('fuzz:agent:seller')?.subscription).toEqual(['sub_seller']);
    expect(ctx.actorPools.get('fuzz:agent:buyer')?.subscription).toEqual(['sub_buyer']);
  });

  it('reports a refused run as skipped and goes on with the next owner', async () => {
    const { calls, skipped, pools } = await setup({ failRun: true }, ['seller']);
    expect(skipped).toEqual(['workflow run of fuzz:agent:buyer: insufficient_funds']);
    expect(calls.filter((c) => c.startsWith('buyer'))).toEqual(['buyer createRun 2×1,2×1']);
    expect(pools.subscription).toEqual(['sub_seller', 'sub_operator']);
  });

  it('gives up polling for events after a while (skipped), keeping the run and subscriptions', async () => {
    const { skipped, pools } = await setup({ emptyPolls: 1000 });
    expect(skipped).toEqual(['workflow task events of fuzz:agent:buyer: no task event of run_1 after 10 polls']);
    expect(pools.workflowRun).toEqual(['run_1']);
    expect(pools.taskEvent).toEqual([]);
  });
});

const ID: JsonSchema = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' };
const both = [{ operatorToken: [] }, { agentId: [], agentTimestamp: [], agentNonce: [], agentSignature: [] }];
const doc = {
  paths: {
    '/v1/workflows/tasks': { get: { parameters: [{ in: 'query', name: 'run', schema: ID }], security: both } },
    '/v1/workflows/tasks/subscriptions/{subscription_id}/events/consume': {
      post: {
        parameters: [{ in: 'path', name: 'subscription_id', schema: ID }],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { event_ids: { type: 'array', items: ID, minItems: 1 }, up_to: ID } } } } },
        security: both,
      },
    },
  },
};

describe('workflows requests', () => {
  const owner = 'fuzz:agent:a';
  const other = 'fuzz:agent:b';
  const ctx: CaseContext = {
    pools: { agent: [owner, other], workflowRun: ['run_1'], subscription: ['sub_a', 'sub_op'], taskEvent: ['evt_1', 'evt_2'] },
    signerIds: [owner, other],
    archive: null,
    now: Date.parse('2030-01-01T00:00:00Z'),
    signingKeys: new Map(),
    actorPools: new Map([[owner, { subscription: ['sub_a'] }]]),
  };
  const stream = new CaseStream(operationsOf(doc), ctx, 5);
  const cases = Array.from({ length: 800 }, () => stream.next().case).filter((c) => c.focus === 'valid');

  it('names real runs, subscriptions and events', () => {
    const lists = cases.filter((c) => c.op.path === '/v1/workflows/tasks' && c.target.includes('run='));
    expect(lists.filter((c) => c.target.includes('run=run_1')).length).toBeGreaterThan(lists.length / 3);
    const consumes = cases.filter((c) => c.op.method === 'POST');
    const bodies = consumes.map((c) => JSON.parse(c.body!.toString()) as { event_ids?: string[]; up_to?: string });
    expect(bodies.filter((b) => b.up_to === 'evt_1' || b.up_to === 'evt_2').length).toBeGreaterThan(5);
    expect(bodies.filter((b) => b.event_ids?.some((id) => id.startsWith('evt_'))).length).toBeGreaterThan(5);
  });

  it('sends the owner’s requests to its own subscription most of the time', () => {
    const ofOwner = cases.filter((c) => c.op.method === 'POST' && ctx.signerIds[c.signer] === owner);
    expect(ofOwner.length).toBeGreaterThan(10);
    expect(ofOwner.filter((c) => c.target.includes('/sub_a/')).length).toBeGreaterThan(ofOwner.length / 2);
  });
});
