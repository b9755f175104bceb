import type { Queryable } from '@exchange/db';
import { decodeCursor, toPage } from '@exchange/platform';
import type { Page, Run, RunRecord, RunStatus, ShardContractSpec, StageRecord, StageStatus, VerificationMode } from '../domain/model';

// workflow_runs and workflow_stages rows ⇄ domain. Writers take the caller's transaction client.

interface RunRow {
  workflow_run_id: string;
  template: string;
  owner_agent_id: string;
  status: string;
  input_refs: string[] | null;
  current_stage: number;
  max_shard_attempts: number;
  currency: string;
  budget: string;
  spent: string;
  committed: string;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

interface StageRow {
  workflow_run_id: string;
  stage_index: number;
  name: string;
  shards: number;
  contract_spec: SpecJson;
  status: string;
  settled_shards: number;
  input_refs: string[] | null;
  output_refs: string[] | null;
  started_at: Date | null;
  completed_at: Date | null;
}

interface SpecJson {
  title: string;
  description: string;
  tags: string[];
  budget: string;
  currency: string;
  verification_mode: string;
  acceptance_criteria: string;
  verifier_id: string | null;
  deadline_seconds: number;
}

const RUN_COLUMNS = `workflow_run_id, template, owner_agent_id, status, input_refs, current_stage, max_shard_attempts, currency,
  budget::text AS budget, spent::text AS spent, committed::text AS committed, failure_reason, created_at, updated_at, completed_at`;

function toRun(r: RunRow): RunRecord {
  return {
    workflowRunId: r.workflow_run_id,
    template: r.template,
    ownerAgentId: r.owner_agent_id,
    status: r.status as RunStatus,
    inputRefs: r.input_refs ?? [],
    currentStage: r.current_stage,
    maxShardAttempts: r.max_shard_attempts,
    currency: r.currency,
    budget: BigInt(r.budget),
    spent: BigInt(r.spent),
    committed: BigInt(r.committed),
    failureReason: r.failure_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
  };
}

function specToJson(s: ShardContractSpec): SpecJson {
  return {
    title: s.title,
    description: s.description,
    tags: s.tags,
    budget: s.budget.toString(),
    currency: s.currency,
    verification_mode: s.verificationMode,
    acceptance_criteria: s.acceptanceCriteria,
    verifier_id: s.verifierId,
    deadline_seconds: s.deadlineSeconds,
  };
}

function toStage(r: StageRow): StageRecord {
  const s = r.contract_spec;
  return {
    workflowRunId: r.workflow_run_id,
    index: r.stage_index,
    name: r.name,
    shards: r.shards,
    contract: {
      title: s.title,
      description: s.description,
      tags: s.tags,
      budget: BigInt(s.budget),
      currency: s.currency,
      verificationMode: s.verification_mode as VerificationMode,
      acceptanceCriteria: s.acceptance_criteria,
      verifierId: s.verifier_id,
      deadlineSeconds: s.deadline_seconds,
    },
    status: r.status as StageStatus,
    settledShards: r.settled_shards,
    inputRefs: r.input_refs ?? [],
    outputRefs: r.output_refs ?? [],
    startedAt: r.started_at,
    completedAt: r.completed_at,
  };
}

export interface RunIdempotency {
  scope: string;
  key: string;
  requestHash: string;
}

export async function insertRun(db: Queryable, run: Run, idem: RunIdempotency | null): Promise<void> {
  await db.query(
    `INSERT INTO workflow_runs (workflow_run_id, template, owner_agent_id, status, input_refs, current_stage, max_shard_attempts, currency,
       budget, spent, committed, failure_reason, idempotency_scope, idempotency_key, request_hash, created_at, updated_at, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
    [
      run.workflowRunId, run.template, run.ownerAgentId, run.status, run.inputRefs, run.currentStage, run.maxShardAttempts, run.currency,
      run.budget.toString(), run.spent.toString(), run.committed.toString(), run.failureReason,
      idem?.scope ?? null, idem?.key ?? null, idem?.requestHash ?? null, run.createdAt, run.updatedAt, run.completedAt,
    ],
  );
  for (const s of run.stages) {
    await db.query(
      `INSERT INTO workflow_stages (workflow_run_id, stage_index, name, shards, contract_spec, status, settled_shards, input_refs, output_refs, started_at, completed_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11)`,
      [s.workflowRunId, s.index, s.name, s.shards, JSON.stringify(specToJson(s.contract)), s.status, s.settledShards, s.inputRefs, s.outputRefs, s.startedAt, s.completedAt],
    );
  }
}

/** The run a (scope, key) created, with the request hash it was created from. */
export async function findRunByKey(db: Queryable, scope: string, key: string): Promise<{ workflowRunId: string; requestHash: string } | null> {
  const { rows } = await db.query<{ workflow_run_id: string; request_hash: string | null }>(
    'SELECT workflow_run_id, request_hash FROM workflow_runs WHERE idempotency_scope = $1 AND idempotency_key = $2',
    [scope, key],
  );
  return rows.length === 0 ? null : { workflowRunId: rows[0].workflow_run_id, requestHash: rows[0].request_hash ?? '' };
}

async function withStages(db: Queryable, run: RunRecord): Promise<Run> {
  const { rows } = await db.query<StageRow>('SELECT * FROM workflow_stages WHERE workflow_run_id = $1 ORDER BY stage_index', [run.workflowRunId]);
  return { ...run, stages: rows.map(toStage) };
}

export async function getRun(db: Queryable, workflowRunId: string): Promise<Run | null> {
  const { rows } = await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE workflow_run_id = $1`, [workflowRunId]);
  return rows.length === 0 ? null : withStages(db, toRun(rows[0]));
}

/** Whether this exchange has the run (one index probe; no stages read). */
export async function runExists(db: Queryable, workflowRunId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM workflow_runs WHERE workflow_run_id = $1', [workflowRunId]);
  return rows.length > 0;
}

/** Locks the run row (FOR UPDATE): every change of one run serializes on it. */
export async function lockRun(db: Queryable, workflowRunId: string): Promise<Run | null> {
  const { rows } = await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE workflow_run_id = $1 FOR UPDATE`, [workflowRunId]);
  return rows.length === 0 ? null : withStages(db, toRun(rows[0]));
}

export async function saveRun(db: Queryable, r: RunRecord): Promise<void> {
  await db.query(
    `UPDATE workflow_runs SET status = $2, current_stage = $3, spent = $4, committed = $5, failure_reason = $6, updated_at = $7, completed_at = $8
     WHERE workflow_run_id = $1`,
    [r.workflowRunId, r.status, r.currentStage, r.spent.toString(), r.committed.toString(), r.failureReason, r.updatedAt, r.completedAt],
  );
}

export async function saveStage(db: Queryable, s: StageRecord): Promise<void> {
  await db.query(
    `UPDATE workflow_stages SET status = $3, settled_shards = $4, input_refs = $5, output_refs = $6, started_at = $7, completed_at = $8
     WHERE workflow_run_id = $1 AND stage_index = $2`,
    [s.workflowRunId, s.index, s.status, s.settledShards, s.inputRefs, s.outputRefs, s.startedAt, s.completedAt],
  );
}

export interface RunFilters {
  template?: string;
  ownerAgentId?: string;
  status?: RunStatus;
}

/** Newest first by (created_at, workflow_run_id) — DESIGN §3 keyset pages. */
export async function listRuns(db: Queryable, f: RunFilters, page: { limit: number; cursor?: string }): Promise<Page<Run>> {
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    args.push(value);
    where.push(sql.replace('?', `$${args.length}`));
  };
  if (f.template !== undefined) add('template = ?', f.template);
  if (f.ownerAgentId !== undefined) add('owner_agent_id = ?', f.ownerAgentId);
  if (f.status !== undefined) add('status = ?', f.status);
  if (page.cursor) {
    const c = decodeCursor(page.cursor);
    args.push(c.createdAt, c.id);
    where.push(`(created_at, workflow_run_id) < ($${args.length - 1}, $${args.length})`);
  }
  args.push(page.limit + 1);
  const { rows } = await db.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM workflow_runs ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
     ORDER BY created_at DESC, workflow_run_id DESC LIMIT $${args.length}`,
    args,
  );
  const p = toPage(rows.map(toRun), page.limit, (r) => ({ createdAt: r.createdAt, id: r.workflowRunId }));
  return { data: await Promise.all(p.data.map((r) => withStages(db, r))), nextCursor: p.nextCursor };
}

/** Runs created but whose first stage never started (recovery). */
export async function pendingRunIds(db: Queryable, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ workflow_run_id: string }>(
    `SELECT workflow_run_id FROM workflow_runs WHERE status = 'pending' ORDER BY created_at LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.workflow_run_id);
}
