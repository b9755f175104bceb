import fc from 'fast-check';
import { TargetSet, targetSigners, targetsFor, targetValue } from './op-targets';

// Targets keep ids that only work together, and the agent allowed to act on them.

const OP = 'POST /v1/contracts/{contract_id}/verify';
const set = new TargetSet();
set.add(OP, 'fz:agent:verifier', { contract_id: 'ctr_1', result_id: 'res_1' });
set.add(OP, 'fz:agent:buyer', { contract_id: 'ctr_2', result_id: 'res_2' });
set.add('POST /v1/contracts/{contract_id}/award/{offer_id}', null, { contract_id: 'ctr_3', offer_id: 'ofr_3' });

describe('op targets', () => {
  it("gives a signer its own targets and those of any agent, never another agent's", () => {
    expect(targetsFor(set.byOp, OP, 'fz:agent:buyer').map((t) => t.params.result_id)).toEqual(['res_2']);
    expect(targetsFor(set.byOp, OP, 'fz:agent:seller')).toEqual([]);
    expect(targetsFor(set.byOp, 'POST /v1/contracts/{contract_id}/award/{offer_id}', 'fz:agent:seller')).toHaveLength(1);
    expect(targetsFor(undefined, OP, 'fz:agent:buyer')).toEqual([]);
  });

  it('names the signers that own a target (by index), none for targets of any agent', () => {
    expect(targetSigners(set.byOp, OP, ['fz:agent:buyer', 'fz:agent:seller', 'fz:agent:verifier'])).toEqual([0, 2]);
    expect(targetSigners(set.byOp, 'POST /v1/contracts/{contract_id}/award/{offer_id}', ['fz:agent:buyer'])).toEqual([]);
  });

  it("draws a value only from the signer's targets", () => {
    const values = fc.sample(targetValue(set.byOp, OP, 'fz:agent:verifier', 'result_id') as fc.Arbitrary<string>, { numRuns: 20, seed: 1 });
    expect(new Set(values)).toEqual(new Set(['res_1']));
    expect(targetValue(set.byOp, OP, 'fz:agent:verifier', 'offer_id')).toBeNull();
    expect(targetValue(set.byOp, OP, 'fz:agent:seller', 'result_id')).toBeNull();
  });
});
