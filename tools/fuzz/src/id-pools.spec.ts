import { AGENT_ID_PATTERN, mergeActorPools, poolFor, poolValues } from './id-pools';

describe('poolFor', () => {
  it.each([
    ['contract_id', 'contract'],
    ['hold_id', 'hold'],
    ['artifact_refs', 'artifact'],
    ['object_ids', 'object'],
    ['template_id', 'template'],
    ['work_product_template_id', 'workProductTemplate'],
    ['to_agent_id', 'agent'],
    ['agent_id', 'agent'],
    ['seller_id', 'agent'],
    ['parties', 'agent'],
    ['pubkey', 'pubkey'],
    ['docket', 'docket'],
    ['mandate_id', 'mandate'],
    ['commerce_session_id', 'commerceSession'],
    ['merchant_domain', 'merchantDomain'],
    ['merchants', 'merchantDomain'],
    ['workflow_run_id', 'workflowRun'],
    ['run', 'workflowRun'],
    ['subscription_id', 'subscription'],
    ['event_ids', 'taskEvent'],
    ['up_to', 'taskEvent'],
    ['tag', 'tag'],
    ['merchant_id', 'merchantDomain'],
    ['projection_id', 'projection'],
    ['period_receipt_id', 'periodReceipt'],
    ['run_id', 'proxyRun'],
    ['deal_id', 'deal'],
    ['case_id', 'case'],
  ])('%s → %s', (name, pool) => {
    expect(poolFor(name)).toBe(pool);
  });

  it('recognises an agent id by its pattern under any name', () => {
    expect(poolFor('whoever', AGENT_ID_PATTERN)).toBe('agent');
  });

  it('has no pool for free text', () => {
    expect(poolFor('title')).toBeNull();
    expect(poolFor('amount')).toBeNull();
  });
});

describe('poolValues', () => {
  it('returns only non-empty pools', () => {
    expect(poolValues({ agent: ['a:agent:b'] }, 'agent')).toEqual(['a:agent:b']);
    expect(poolValues({ agent: [] }, 'agent')).toBeNull();
    expect(poolValues({}, 'contract')).toBeNull();
    expect(poolValues({ agent: ['x'] }, null)).toBeNull();
  });
});

describe('mergeActorPools', () => {
  it('keeps every agent and concatenates the pools an agent has in both', () => {
    const commerce = new Map([['a', { mandate: ['m1'], commerceSession: ['s1'] }], ['b', { mandate: ['m2'] }]]);
    const workflows = new Map([['a', { workflowRun: ['run_1'], mandate: ['m3'] }], ['c', { subscription: ['sub_1'] }]]);
    const merged = mergeActorPools(commerce, workflows);
    expect(Object.fromEntries(merged)).toEqual({
      a: { mandate: ['m1', 'm3'], commerceSession: ['s1'], workflowRun: ['run_1'] },
      b: { mandate: ['m2'] },
      c: { subscription: ['sub_1'] },
    });
    // The inputs are left as they were.
    expect(commerce.get('a')).toEqual({ mandate: ['m1'], commerceSession: ['s1'] });
  });
});
