import { AGENT_ID_PATTERN, poolFor, poolValues } from './id-pools';

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
