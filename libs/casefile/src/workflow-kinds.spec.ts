// The workflows record kinds (workflow_run, workflow_task) build, sign, archive and verify like
// every other record kind, next to a shard contract's entries; tampering one names that entry.
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { readArchive, recordEntry, RECORD_KINDS, signDocket, verifyArchive, verifyDocket, writeArchive, type Docket } from './index';

const keys = generateKeyPair();
const trusted = toBase64(keys.publicKey);

function runDocket(): Docket {
  return signDocket(
    {
      subject: { workflow_run_id: 'run_1', owner_agent_id: 'a:agent:b' },
      entries: [
        recordEntry('workflow_run', 'run_1', { workflow_run_id: 'run_1', status: 'completed', budget: '10', stages: [{ name: 'extract', shards: 2 }] }),
        recordEntry('workflow_task', 'tsk_1', { task_id: 'tsk_1', contract_id: 'ctr_1', status: 'settled', price: '5' }),
        recordEntry('contract', 'ctr_1', { contract_id: 'ctr_1', status: 'settled' }),
      ],
      createdAt: new Date('2026-11-25T10:00:00.000Z'),
    },
    keys.privateKey,
  );
}

describe('workflows record kinds', () => {
  it('should be record kinds', () => {
    expect(RECORD_KINDS).toEqual(expect.arrayContaining(['workflow_run', 'workflow_task']));
  });

  it('should verify a run docket with every check ok', () => {
    const result = verifyDocket(JSON.parse(JSON.stringify(runDocket())), { trustedPublicKey: trusted });
    expect(result.valid).toBe(true);
    expect(result.checks.map((c) => c.ref)).toEqual(['docket', 'signature', 'run_1', 'tsk_1', 'ctr_1']);
  });

  it('should fail at the task entry whose content was changed', () => {
    const docket = JSON.parse(JSON.stringify(runDocket())) as Docket;
    (docket.entries[1] as unknown as { content: { price: string } }).content.price = '50';
    const result = verifyDocket(docket, { trustedPublicKey: trusted });
    expect(result.valid).toBe(false);
    expect(result.checks.filter((c) => !c.ok).map((c) => c.ref)).toEqual(['signature', 'tsk_1']);
  });

  it('should verify as an archive (the offline CLI path)', async () => {
    const archive = await writeArchive(runDocket(), new Map());
    expect((await readArchive(archive)).docket.entries).toHaveLength(3);
    expect(await verifyArchive(archive, { trustedPublicKey: trusted })).toMatchObject({ valid: true });
  });
});
