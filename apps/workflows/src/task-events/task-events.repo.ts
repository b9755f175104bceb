import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import type pg from 'pg';
import type { TaskEventInput, TaskEventRecord } from './task-event';

// One writer for the task event log and the outbox: a run/stage/task change calls it inside the
// transaction of the change, so the log row, the published event and the change commit together.

// Sequences are drawn at insert but become visible at commit; two transactions could commit out of
// order and a reader that acknowledged `up_to` the later one would skip the earlier for good. The
// transaction-scoped lock makes log inserts commit in seq order; callers append as their LAST
// statement so the lock is held only until COMMIT.
const TASK_LOG_LOCK = 0x77666c6f; // "wflo"

/** Appends one event (log row + outbox event exchange.workflows.<type>, same id); returns the row. */
export async function recordTaskEvent(client: pg.ClientBase, input: TaskEventInput): Promise<TaskEventRecord> {
  const envelope = newEvent({
    type: `exchange.workflows.${input.type}`,
    source: 'workflows',
    subjectId: input.taskId ?? input.workflowRunId,
    actor: input.actor ?? 'service:workflows',
    data: input.data,
  });
  await enqueueEvent(pgSqlExecutor(client), envelope);
  await client.query('SELECT pg_advisory_xact_lock($1)', [TASK_LOG_LOCK]);
  const { rows } = await client.query<{ seq: string; occurred_at: Date }>(
    `INSERT INTO task_events (event_id, type, workflow_run_id, owner_agent_id, stage, shard, task_id, contract_id, data, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10) RETURNING seq::text AS seq, occurred_at`,
    [
      envelope.id,
      input.type,
      input.workflowRunId,
      input.ownerAgentId,
      input.stage ?? null,
      input.shard ?? null,
      input.taskId ?? null,
      input.contractId ?? null,
      JSON.stringify(input.data),
      new Date(envelope.occurred_at),
    ],
  );
  return {
    eventId: envelope.id,
    seq: rows[0].seq,
    type: input.type,
    workflowRunId: input.workflowRunId,
    ownerAgentId: input.ownerAgentId,
    stage: input.stage ?? null,
    shard: input.shard ?? null,
    taskId: input.taskId ?? null,
    contractId: input.contractId ?? null,
    data: input.data,
    occurredAt: rows[0].occurred_at,
  };
}
