import { newId } from '@exchange/platform';
import { originFingerprint, originOf, parseOrigin, verifyOrigin, type OriginSources } from './origin';

const ctr = newId('ctr');
const run = newId('run');

function sources(parties: { buyerId: string; sellerId: string | null } | null, runOwner: string | null): OriginSources {
  return {
    contractParties: async () => parties,
    runOwnedBy: async (_id, agentId) => runOwner === agentId,
  };
}

describe('checkout origin', () => {
  it('should take exactly one id of the right shape', () => {
    expect(parseOrigin(undefined)).toBeNull();
    expect(parseOrigin({ contractId: ctr })).toEqual({ kind: 'contract', contractId: ctr });
    expect(parseOrigin({ workflowRunId: run })).toEqual({ kind: 'workflow_run', workflowRunId: run });
    expect(() => parseOrigin({ contractId: ctr, workflowRunId: run })).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'origin' } }));
    expect(() => parseOrigin({})).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => parseOrigin({ contractId: run })).toThrow(expect.objectContaining({ details: { field: 'origin.contract_id' } }));
    expect(() => parseOrigin({ workflowRunId: 'run_1' })).toThrow(expect.objectContaining({ details: { field: 'origin.workflow_run_id' } }));
  });

  it('should let the contract buyer and the awarded seller name a contract, nobody else', async () => {
    const src = sources({ buyerId: 'agent:b', sellerId: 'agent:s' }, null);
    await expect(verifyOrigin(src, { kind: 'contract', contractId: ctr }, 'agent:b')).resolves.toBeUndefined();
    await expect(verifyOrigin(src, { kind: 'contract', contractId: ctr }, 'agent:s')).resolves.toBeUndefined();
    await expect(verifyOrigin(src, { kind: 'contract', contractId: ctr }, 'agent:x')).rejects.toMatchObject({ code: 'origin_not_allowed' });
    await expect(verifyOrigin(sources(null, null), { kind: 'contract', contractId: ctr }, 'agent:b')).rejects.toMatchObject({ code: 'contract_not_found' });
  });

  it('should let only the run owner name a run (404 otherwise, as workflows answers)', async () => {
    const src = sources(null, 'agent:o');
    await expect(verifyOrigin(src, { kind: 'workflow_run', workflowRunId: run }, 'agent:o')).resolves.toBeUndefined();
    await expect(verifyOrigin(src, { kind: 'workflow_run', workflowRunId: run }, 'agent:x')).rejects.toMatchObject({ code: 'workflow_run_not_found' });
  });

  it('should round-trip stored columns and leave fingerprints without an origin unchanged', () => {
    expect(originOf(null, null)).toBeNull();
    expect(originOf(ctr, null)).toEqual({ kind: 'contract', contractId: ctr });
    expect(originOf(null, run)).toEqual({ kind: 'workflow_run', workflowRunId: run });
    expect(originFingerprint(null)).toEqual({});
    expect(originFingerprint({ kind: 'contract', contractId: ctr })).toEqual({ origin: { contractId: ctr, workflowRunId: null } });
  });
});
