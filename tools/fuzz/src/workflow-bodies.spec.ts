import fc from 'fast-check';
import { needsActingAgent } from './cases';
import { operationsOf } from './openapi';
import { consumeBody, runBody, subscriptionBody } from './workflow-bodies';

const sample = <T>(arb: fc.Arbitrary<T>, n = 200) => fc.sample(arb, { numRuns: n, seed: 3 });
const micro = (amount: string) => Math.round(Number(amount) * 1e6);

describe('runBody', () => {
  const runs = sample(runBody('fuzz:agent:a')) as Array<{
    owner_agent_id?: string;
    stages: Array<{ name: string; shards: number; contract: { budget: { amount: string; currency: string }; deadline_seconds: number; acceptance_criteria: string } }>;
    max_shard_attempts?: number;
  }>;

  it('is a run the acting agent owns, within 4 CREDIT, one currency, unique stage names', () => {
    for (const r of runs) {
      expect(r.owner_agent_id ?? 'fuzz:agent:a').toBe('fuzz:agent:a');
      const names = r.stages.map((s) => s.name);
      expect(new Set(names).size).toBe(names.length);
      expect(new Set(r.stages.map((s) => s.contract.budget.currency))).toEqual(new Set(['CREDIT']));
      expect(r.stages.reduce((sum, s) => sum + s.shards * micro(s.contract.budget.amount), 0)).toBeLessThanOrEqual(4_000_000);
      for (const s of r.stages) {
        expect(s.contract.deadline_seconds).toBeGreaterThanOrEqual(60);
        // The workflows service requires it (the schema does not).
        expect(s.contract.acceptance_criteria.length).toBeGreaterThan(0);
      }
      if (r.max_shard_attempts !== undefined) expect(r.max_shard_attempts).toBeGreaterThanOrEqual(1);
    }
    // Both shapes and both ways of naming the owner occur.
    expect(runs.some((r) => r.stages.length === 2) && runs.some((r) => r.stages.length === 1)).toBe(true);
    expect(runs.some((r) => r.owner_agent_id) && runs.some((r) => !r.owner_agent_id)).toBe(true);
  });
});

describe('subscriptionBody and consumeBody', () => {
  it('need ids of the acting agent’s own', () => {
    expect(subscriptionBody({})).toBeNull();
    expect(consumeBody({ workflowRun: ['run_1'] })).toBeNull();
  });

  it('subscribe to the agent’s own run', () => {
    for (const b of sample(subscriptionBody({ workflowRun: ['run_1'] })!) as Array<{ filters: { workflow_run_id: string }; lease_seconds?: number }>) {
      expect(b.filters.workflow_run_id).toBe('run_1');
      if (b.lease_seconds !== undefined) expect(b.lease_seconds).toBeGreaterThanOrEqual(5);
    }
  });

  it('consume the agent’s own events with exactly one of event_ids and up_to', () => {
    const bodies = sample(consumeBody({ taskEvent: ['evt_1', 'evt_2'] })!) as Array<{ event_ids?: string[]; up_to?: string }>;
    for (const b of bodies) {
      expect(Object.keys(b)).toHaveLength(1);
      for (const id of b.event_ids ?? [b.up_to]) expect(['evt_1', 'evt_2']).toContain(id);
    }
    expect(bodies.some((b) => b.up_to) && bodies.some((b) => b.event_ids)).toBe(true);
  });
});

describe('needsActingAgent', () => {
  const ops = operationsOf({
    paths: {
      '/v1/workflows/runs': { post: { security: [{ operatorToken: [] }] } },
      '/v1/workflows/tasks/subscriptions': { post: { security: [{ operatorToken: [] }] } },
      '/v1/workflows/tasks/subscriptions/{subscription_id}/events': { get: { parameters: [{ in: 'path', name: 'subscription_id', schema: { type: 'string' } }], security: [{ operatorToken: [] }] } },
      '/v1/commerce/feedback/record': { post: { security: [{ operatorToken: [] }] } },
    },
  });

  it('has the operator act as the agent on a subscription’s own routes only (it reads every run itself; feedback is the buyer’s own, refused to the operator even acting)', () => {
    expect(Object.fromEntries(ops.map((op) => [op.key, needsActingAgent(op)]))).toEqual({
      'POST /v1/workflows/runs': false,
      'POST /v1/workflows/tasks/subscriptions': false,
      'GET /v1/workflows/tasks/subscriptions/{subscription_id}/events': true,
      'POST /v1/commerce/feedback/record': false,
    });
  });
});
