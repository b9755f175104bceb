// ExportRun over gRPC: the run's docket (run, tasks, every shard contract's registry docket),
// signed by the exchange key and verifiable offline; operator only.
import { recordEntry, artifactEntry, docketJson, signDocket, verifyDocket, type Docket, type RecordEntry } from '@exchange/casefile';
import { Metadata } from '@grpc/grpc-js';
import { errors, type CallOptions } from '@exchange/platform';
import type { registryV1 } from '@exchange/proto';
import { agent, failureCode, operator, startHarness, type Harness } from './subscriptions-export.harness';

const OWNER = 'test:agent:owner';
const SELLER = 'test:agent:seller';
const at = new Date('2026-11-25T09:00:00.000Z');

let h: Harness;
let runId: string;

/** What the registry would export for a contract: its record, an offer, a result, the receipt, the artifact. */
function registryDocket(contractId: string, seed: Uint8Array): Docket {
  return signDocket(
    {
      subject: { contract_id: contractId },
      entries: [
        recordEntry('contract', contractId, { contract_id: contractId, buyer_id: OWNER, seller_id: SELLER, status: 'settled', budget: '5' }),
        recordEntry('offer', `ofr_${contractId}`, { offer_id: `ofr_${contractId}`, contract_id: contractId, price: '4' }),
        recordEntry('result', `res_${contractId}`, { result_id: `res_${contractId}`, artifact_refs: [`sha256:${'a'.repeat(64)}`] }),
        recordEntry('receipt', `rcpt_${contractId}`, { receipt_id: `rcpt_${contractId}`, amount: '4' }),
        // The same bytes in every shard's docket: the run's docket lists them once.
        artifactEntry(`sha256:${'a'.repeat(64)}`, 'a'.repeat(64), 'application/json', 12),
      ],
      createdAt: at,
    },
    seed,
  );
}

beforeAll(async () => {
  let seed: Uint8Array | null = null;
  h = await startHarness('workflows_export', {
    exportCasefile: (req: registryV1.ExportCasefileRequest) => {
      const contractId = req.subject?.contractId ?? '';
      if (contractId === 'ctr_gone') throw errors.notFound('contract', contractId);
      return { docket: { docketJson: docketJson(registryDocket(contractId, seed!)), archive: Buffer.alloc(0) } };
    },
  });
  seed = h.exchangeSeed;
  runId = await h.seedRun(OWNER);
  await h.sql.query(
    `INSERT INTO workflow_stages (workflow_run_id, stage_index, name, shards, contract_spec, status, settled_shards, input_refs, output_refs, started_at)
     VALUES ($1, 0, 'extract', 2, $2::jsonb, 'running', 1, '{in:1}', '{}', $3)`,
    [runId, JSON.stringify({ title: 'Extract', budget: '5000000', currency: 'CREDIT', tags: [] }), at],
  );
  const task = (id: string, shard: number, attempt: number, status: string, contractId: string | null, price: string | null) =>
    h.sql.query(
      `INSERT INTO workflow_tasks (task_id, workflow_run_id, stage_index, stage_name, shard, attempt, status, contract_id, price, currency, input_refs, result_refs, created_at, updated_at)
       VALUES ($1, $2, 0, 'extract', $3, $4, $5, $6, $7, 'CREDIT', '{in:1}', '{}', $8, $8)`,
      [id, runId, shard, attempt, status, contractId, price, at],
    );
  await task('tsk_a', 0, 1, 'settled', 'ctr_a', '4000000');
  await task('tsk_b1', 1, 1, 'failed', 'ctr_b1', null);
  await task('tsk_b2', 1, 2, 'open', 'ctr_b2', null);
});

afterAll(async () => {
  await h?.close();
});

function exportAs(actor = operator, opts?: CallOptions) {
  return h.client.exportRun({ actor, workflowRunId: runId }, opts);
}

describe('ExportRun', () => {
  it('should export a docket that verifies offline against the exchange key, with the run, its tasks and every shard contract', async () => {
    const calls = h.registry.log.count('exportCasefile');
    const res = await exportAs();
    const docket = JSON.parse(res.docketJson) as Docket;
    expect(docket.subject).toEqual({ workflow_run_id: runId, owner_agent_id: OWNER });
    const result = verifyDocket(docket, { trustedPublicKey: h.exchangePublicKey });
    expect(result.valid).toBe(true);
    expect(result.checks.every((c) => c.ok)).toBe(true);

    const refs = docket.entries.map((e) => `${e.kind}:${e.ref}`);
    expect(refs.slice(0, 4)).toEqual([`workflow_run:${runId}`, 'workflow_task:tsk_a', 'workflow_task:tsk_b1', 'workflow_task:tsk_b2']);
    for (const c of ['ctr_a', 'ctr_b1', 'ctr_b2']) {
      expect(refs).toEqual(expect.arrayContaining([`contract:${c}`, `offer:ofr_${c}`, `result:res_${c}`, `receipt:rcpt_${c}`]));
    }
    expect(refs.filter((r) => r.startsWith('artifact:'))).toHaveLength(1);
    expect(new Set(refs).size).toBe(refs.length);

    const run = docket.entries[0] as RecordEntry;
    expect(run.content).toMatchObject({ budget: '1', spent: '0', status: 'completed', stages: [{ name: 'extract', contract_spec: { budget: '5' }, started_at: at.toISOString() }] });
    expect(run.content).not.toHaveProperty('request_hash');
    expect((docket.entries[1] as RecordEntry).content).toMatchObject({ task_id: 'tsk_a', price: '4', contract_id: 'ctr_a', created_at: at.toISOString() });

    // One registry export per contract, records only, asked as the operator with no acting agent.
    expect(h.registry.log.count('exportCasefile') - calls).toBe(3);
    const last = h.registry.lastCall<registryV1.ExportCasefileRequest>('exportCasefile');
    expect(last.request).toMatchObject({ subject: { contractId: 'ctr_b2' }, includePayloads: false });
    expect(last.ctx).toMatchObject({ actor: 'operator:workflows', agentId: null });
  });

  it('should ask the registry as the operator who called, never as an acting agent', async () => {
    await exportAs(operator, { actor: 'operator:alice', agentId: OWNER });
    expect(h.registry.lastCall('exportCasefile').ctx).toMatchObject({ actor: 'operator:alice', agentId: null });
    const md: Metadata = h.registry.lastCall('exportCasefile').metadata;
    expect(md.get('x-agent-id')).toEqual([]);
  });

  it('should fail verification once an entry is tampered with', async () => {
    const docket = JSON.parse((await exportAs()).docketJson) as Docket;
    (docket.entries[1] as RecordEntry & { content: { price: string } }).content.price = '400';
    const result = verifyDocket(docket, { trustedPublicKey: h.exchangePublicKey });
    expect(result.valid).toBe(false);
    expect(result.checks.filter((c) => !c.ok).map((c) => c.ref)).toEqual(['signature', 'tsk_a']);
  });

  it('should refuse an agent with 403, even the run’s owner', async () => {
    expect(await failureCode(exportAs(agent(OWNER)))).toBe('operator_required');
  });

  it('should answer 404 for an unknown run', async () => {
    expect(await failureCode(h.client.exportRun({ actor: operator, workflowRunId: 'run_unknown' }))).toBe('workflow_run_not_found');
  });

  it('should pass the registry’s refusal through', async () => {
    const gone = await h.seedRun(OWNER);
    await h.sql.query(
      `INSERT INTO workflow_tasks (task_id, workflow_run_id, stage_index, stage_name, shard, attempt, status, contract_id, currency, input_refs, result_refs)
       VALUES ('tsk_gone', $1, 0, 'extract', 0, 1, 'open', 'ctr_gone', 'CREDIT', '{}', '{}')`,
      [gone],
    );
    expect(await failureCode(h.client.exportRun({ actor: operator, workflowRunId: gone }))).toBe('contract_not_found');
  });
});
