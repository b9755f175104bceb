import type pg from 'pg';
import { testLogger } from '@exchange/testing';
import type { ApplyOutcome, MutationPlan } from '../domain/ledger.ports';
import { commitBatch } from './batch-apply';

const plan = (n: number): MutationPlan => ({ now: new Date(n) });
const row = (o_outcome: string) => ({ o_outcome, o_detail: null, o_fingerprint: null, o_response: null, o_error: null });

function deps(rows: unknown[]) {
  const alone: MutationPlan[] = [];
  const pool = { query: jest.fn(async () => ({ rows })) } as unknown as pg.Pool;
  return {
    alone,
    deps: {
      pool,
      logger: testLogger,
      applyAlone: async (p: MutationPlan): Promise<ApplyOutcome> => {
        alone.push(p);
        return { kind: 'recorded' };
      },
    },
  };
}

describe('commitBatch', () => {
  it('should map one row per plan, in order', async () => {
    const d = deps([row('applied'), row('recorded')]);
    expect(await commitBatch(d.deps, [plan(1), plan(2)])).toEqual([{ value: { kind: 'applied' } }, { value: { kind: 'recorded' } }]);
    expect(d.alone).toEqual([]);
  });

  it.each([[[row('applied')]], [[row('applied'), row('applied'), row('applied')]]])(
    'should run the plans one by one when the batch answers another number of rows (%#)',
    async (rows) => {
      const d = deps(rows);
      const plans = [plan(1), plan(2)];
      expect(await commitBatch(d.deps, plans)).toEqual([{ value: { kind: 'recorded' } }, { value: { kind: 'recorded' } }]);
      expect(d.alone).toEqual(plans);
    },
  );
});
