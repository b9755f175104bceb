import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { recordEntry, signDocket, verifyDocket, type Docket } from '@exchange/casefile';
import { recordView, runDocket, runDocketEntries, runView, shardContractIds, type RunSources } from './run-docket';

const at = new Date('2026-11-25T10:00:00.000Z');
const exchange = generateKeyPair();
const registryKey = generateKeyPair();

function sources(): RunSources {
  return {
    run: { workflow_run_id: 'run_1', owner_agent_id: 'a:agent:b', status: 'running', budget: '20000000', spent: '2500000', committed: '0', created_at: at, completed_at: null },
    stages: [{ stage_index: 0, name: 'extract', contract_spec: { title: 'x', budget: '5000000', currency: 'CREDIT' }, started_at: at }],
    tasks: [
      { task_id: 'tsk_1', contract_id: 'ctr_1', price: '2500000', status: 'settled', created_at: at },
      { task_id: 'tsk_2', contract_id: null, price: null, status: 'posting', created_at: at },
      { task_id: 'tsk_3', contract_id: 'ctr_2', price: null, status: 'open', created_at: at },
      { task_id: 'tsk_4', contract_id: 'ctr_1', price: null, status: 'failed', created_at: at },
    ],
  };
}

function contractDocket(contractId: string, shared: string): Docket {
  return signDocket(
    {
      subject: { contract_id: contractId },
      entries: [recordEntry('contract', contractId, { contract_id: contractId }), recordEntry('receipt', shared, { receipt_id: shared })],
      createdAt: at,
    },
    registryKey.privateKey,
  );
}

describe('recordView', () => {
  it('should show money as decimals, timestamps as ISO and absent values as null', () => {
    expect(recordView({ price: '2500000', at, none: undefined, n: 3 }, ['price'])).toEqual({ price: '2.5', at: '2026-11-25T10:00:00.000Z', none: null, n: 3 });
  });
});

describe('runView', () => {
  it('should carry the stages with their shard budget as a decimal', () => {
    const view = runView(sources());
    expect(view).toMatchObject({ budget: '20', spent: '2.5', committed: '0', created_at: '2026-11-25T10:00:00.000Z', completed_at: null });
    expect(view['stages']).toEqual([
      { stage_index: 0, name: 'extract', contract_spec: { title: 'x', budget: '5', currency: 'CREDIT' }, started_at: '2026-11-25T10:00:00.000Z' },
    ]);
  });
});

describe('shardContractIds', () => {
  it('should list each contract once, in task order, skipping unposted tasks', () => {
    expect(shardContractIds(sources().tasks)).toEqual(['ctr_1', 'ctr_2']);
  });
});

describe('runDocketEntries', () => {
  it('should put the run, then each task, then the contracts’ entries once per kind and ref', () => {
    const entries = runDocketEntries(sources(), [contractDocket('ctr_1', 'rcpt_shared'), contractDocket('ctr_2', 'rcpt_shared')]);
    expect(entries.map((e) => `${e.kind}:${e.ref}`)).toEqual([
      'workflow_run:run_1',
      'workflow_task:tsk_1',
      'workflow_task:tsk_2',
      'workflow_task:tsk_3',
      'workflow_task:tsk_4',
      'contract:ctr_1',
      'receipt:rcpt_shared',
      'contract:ctr_2',
    ]);
    expect(entries[1]).toMatchObject({ content: { price: '2.5' } });
  });
});

describe('runDocket', () => {
  it('should be signed by the exchange key and verify, contract entries included', () => {
    const docket = runDocket(sources(), [contractDocket('ctr_1', 'rcpt_1')], exchange.privateKey, at);
    expect(docket.subject).toEqual({ workflow_run_id: 'run_1', owner_agent_id: 'a:agent:b' });
    const result = verifyDocket(JSON.parse(JSON.stringify(docket)), { trustedPublicKey: toBase64(exchange.publicKey) });
    expect(result).toMatchObject({ valid: true });
  });
});
