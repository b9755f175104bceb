import type { Queryable } from '@exchange/db';
import { decodeCursor, toPage } from '@exchange/platform';
import type { ContractStatus, Page, TaskRecord, TaskStatus } from '../domain/model';

// workflow_tasks rows ⇄ domain. Writers take the caller's transaction client (the run row is
// locked first, so a run's tasks change one transaction at a time).

interface TaskRow {
  task_id: string;
  workflow_run_id: string;
  stage_index: number;
  stage_name: string;
  shard: number;
  attempt: number;
  status: string;
  contract_id: string | null;
  contract_status: string | null;
  seller_id: string | null;
  price: string | null;
  currency: string;
  input_refs: string[] | null;
  result_refs: string[] | null;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  settled_at: Date | null;
}

const COLUMNS = `task_id, workflow_run_id, stage_index, stage_name, shard, attempt, status, contract_id, contract_status, seller_id,
  price::text AS price, currency, input_refs, result_refs, failure_reason, created_at, updated_at, settled_at`;
/** The same columns of the task table aliased `t` (queries joining workflow_runs). */
const T_COLUMNS = COLUMNS.split(',').map((c) => `t.${c.trim()}`).join(', ');

function toTask(r: TaskRow): TaskRecord {
  return {
    taskId: r.task_id,
    workflowRunId: r.workflow_run_id,
    stageIndex: r.stage_index,
    stageName: r.stage_name,
    shard: r.shard,
    attempt: r.attempt,
    status: r.status as TaskStatus,
    contractId: r.contract_id,
    contractStatus: r.contract_status as ContractStatus | null,
    sellerId: r.seller_id,
    price: r.price === null ? null : BigInt(r.price),
    currency: r.currency,
    inputRefs: r.input_refs ?? [],
    resultRefs: r.result_refs ?? [],
    failureReason: r.failure_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    settledAt: r.settled_at,
  };
}

export async function insertTask(db: Queryable, t: TaskRecord): Promise<void> {
  await db.query(
    `INSERT INTO workflow_tasks (task_id, workflow_run_id, stage_index, stage_name, shard, attempt, status, contract_id, contract_status, seller_id,
       price, currency, input_refs, result_refs, failure_reason, created_at, updated_at, settled_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
    [
      t.taskId, t.workflowRunId, t.stageIndex, t.stageName, t.shard, t.attempt, t.status, t.contractId, t.contractStatus, t.sellerId,
      t.price?.toString() ?? null, t.currency, t.inputRefs, t.resultRefs, t.failureReason, t.createdAt, t.updatedAt, t.settledAt,
    ],
  );
}

export async function saveTask(db: Queryable, t: TaskRecord): Promise<void> {
  await db.query(
    `UPDATE workflow_tasks SET status = $2, contract_id = $3, contract_status = $4, seller_id = $5, price = $6, result_refs = $7,
       failure_reason = $8, updated_at = $9, settled_at = $10 WHERE task_id = $1`,
    [t.taskId, t.status, t.contractId, t.contractStatus, t.sellerId, t.price?.toString() ?? null, t.resultRefs, t.failureReason, t.updatedAt, t.settledAt],
  );
}

export async function getTask(db: Queryable, taskId: string): Promise<TaskRecord | null> {
  const { rows } = await db.query<TaskRow>(`SELECT ${COLUMNS} FROM workflow_tasks WHERE task_id = $1`, [taskId]);
  return rows.length === 0 ? null : toTask(rows[0]);
}

/** The task of one shard attempt (the labels of a contract name it). */
export async function taskOfAttempt(db: Queryable, runId: string, stageIndex: number, shard: number, attempt: number): Promise<TaskRecord | null> {
  const { rows } = await db.query<TaskRow>(
    `SELECT ${COLUMNS} FROM workflow_tasks WHERE workflow_run_id = $1 AND stage_index = $2 AND shard = $3 AND attempt = $4`,
    [runId, stageIndex, shard, attempt],
  );
  return rows.length === 0 ? null : toTask(rows[0]);
}

/** Every task of a run, by stage, shard and attempt. */
export async function tasksOfRun(db: Queryable, runId: string): Promise<TaskRecord[]> {
  const { rows } = await db.query<TaskRow>(`SELECT ${COLUMNS} FROM workflow_tasks WHERE workflow_run_id = $1 ORDER BY stage_index, shard, attempt`, [runId]);
  return rows.map(toTask);
}

/** Tasks still in posting whose run is running, oldest first (recovery). */
export async function postingTasks(db: Queryable, olderThan: Date, limit: number): Promise<TaskRecord[]> {
  const { rows } = await db.query<TaskRow>(
    `SELECT ${T_COLUMNS} FROM workflow_tasks t JOIN workflow_runs r USING (workflow_run_id)
     WHERE t.status = 'posting' AND r.status = 'running' AND t.updated_at <= $1 ORDER BY t.created_at LIMIT $2`,
    [olderThan, limit],
  );
  return rows.map(toTask);
}

/** Cancelled tasks whose contract the market still shows open or awarded (a cancel to send again). */
export async function tasksToCancel(db: Queryable, limit: number): Promise<TaskRecord[]> {
  const { rows } = await db.query<TaskRow>(
    `SELECT ${COLUMNS} FROM workflow_tasks WHERE status = 'cancelled' AND contract_id IS NOT NULL AND contract_status IN ('open', 'awarded')
     ORDER BY updated_at LIMIT $1`,
    [limit],
  );
  return rows.map(toTask);
}

export interface TaskFilters {
  workflowRunId?: string;
  stage?: string;
  status?: TaskStatus;
  ownerAgentId?: string;
  shard?: number;
  contractStatus?: ContractStatus;
  /** Only tasks whose contract is posted (ListRunContracts). */
  withContract?: boolean;
}

/** Newest first by (created_at, task_id) — DESIGN §3 keyset pages. */
export async function listTasks(db: Queryable, f: TaskFilters, page: { limit: number; cursor?: string }): Promise<Page<TaskRecord>> {
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    args.push(value);
    where.push(sql.replace('?', `$${args.length}`));
  };
  if (f.workflowRunId !== undefined) add('t.workflow_run_id = ?', f.workflowRunId);
  if (f.stage !== undefined) add('t.stage_name = ?', f.stage);
  if (f.status !== undefined) add('t.status = ?', f.status);
  if (f.shard !== undefined) add('t.shard = ?', f.shard);
  if (f.contractStatus !== undefined) add('t.contract_status = ?', f.contractStatus);
  if (f.ownerAgentId !== undefined) add('r.owner_agent_id = ?', f.ownerAgentId);
  if (f.withContract) where.push('t.contract_id IS NOT NULL');
  if (page.cursor) {
    const c = decodeCursor(page.cursor);
    args.push(c.createdAt, c.id);
    where.push(`(t.created_at, t.task_id) < ($${args.length - 1}, $${args.length})`);
  }
  args.push(page.limit + 1);
  const { rows } = await db.query<TaskRow>(
    `SELECT ${T_COLUMNS} FROM workflow_tasks t JOIN workflow_runs r USING (workflow_run_id)
     ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY t.created_at DESC, t.task_id DESC LIMIT $${args.length}`,
    args,
  );
  return toPage(rows.map(toTask), page.limit, (t) => ({ createdAt: t.createdAt, id: t.taskId }));
}
