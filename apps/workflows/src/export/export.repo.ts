import type { Queryable } from '@exchange/db';
import type { RunSources, StoredRow } from './run-docket';

// The run export's reads (plain SQL, read-only): the run row, its stages and its tasks as stored,
// money as decimal-string micro-units (::text) so nothing passes through a float.

const RUN_COLUMNS = `workflow_run_id, template, owner_agent_id, status, input_refs, current_stage, max_shard_attempts, currency,
  budget::text AS budget, spent::text AS spent, committed::text AS committed, failure_reason, created_at, updated_at, completed_at`;
const STAGE_COLUMNS = 'stage_index, name, shards, contract_spec, status, settled_shards, input_refs, output_refs, started_at, completed_at';
const TASK_COLUMNS = `task_id, workflow_run_id, stage_index, stage_name, shard, attempt, status, contract_id, contract_status, seller_id,
  price::text AS price, currency, input_refs, result_refs, failure_reason, created_at, updated_at, settled_at`;

/** The run and what the export shows of it, or null for an unknown run. */
export async function readRunSources(db: Queryable, workflowRunId: string): Promise<RunSources | null> {
  const run = await db.query<StoredRow>(`SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE workflow_run_id = $1`, [workflowRunId]);
  if (run.rows.length === 0) return null;
  const stages = await db.query<StoredRow>(`SELECT ${STAGE_COLUMNS} FROM workflow_stages WHERE workflow_run_id = $1 ORDER BY stage_index`, [workflowRunId]);
  const tasks = await db.query<StoredRow>(
    `SELECT ${TASK_COLUMNS} FROM workflow_tasks WHERE workflow_run_id = $1 ORDER BY stage_index, shard, attempt, created_at, task_id`,
    [workflowRunId],
  );
  return { run: run.rows[0], stages: stages.rows, tasks: tasks.rows };
}
