import { newId } from '@exchange/platform';
import type { Run, StageRecord, TaskRecord } from '../domain/model';
import { committedOf } from '../domain/task-mirror';

// State changes of a run (pure): they return the rows to write and the events to record; the
// engine writes them in the transaction holding the run's lock.

/** Stage `index` starts with `inputRefs`: one task per shard, attempt 1, status posting. */
export function startStage(run: Run, index: number, inputRefs: string[], now: Date): { stage: StageRecord; tasks: TaskRecord[] } {
  const current = run.stages[index];
  const stage: StageRecord = { ...current, status: 'running', inputRefs, startedAt: now };
  run.stages[index] = stage;
  run.currentStage = index;
  run.updatedAt = now;
  const tasks = Array.from({ length: stage.shards }, (_, shard) => newTask(run, stage, shard, 1, now));
  return { stage, tasks };
}

export function newTask(run: Pick<Run, 'workflowRunId' | 'currency'>, stage: Pick<StageRecord, 'index' | 'name' | 'inputRefs'>, shard: number, attempt: number, now: Date): TaskRecord {
  return {
    taskId: newId('tsk'),
    workflowRunId: run.workflowRunId,
    stageIndex: stage.index,
    stageName: stage.name,
    shard,
    attempt,
    status: 'posting',
    contractId: null,
    contractStatus: null,
    sellerId: null,
    price: null,
    currency: run.currency,
    inputRefs: [...stage.inputRefs],
    resultRefs: [],
    failureReason: null,
    createdAt: now,
    updatedAt: now,
    settledAt: null,
  };
}

/**
 * The run fails: the current stage fails, every task that can still be stopped (posting, open,
 * awarded) is cancelled and its escrow released from `committed`. Delivered and disputed tasks
 * stay: the market cannot cancel them, they finish there and are still mirrored. Returns the
 * tasks cancelled.
 */
export function failRun(run: Run, reason: string, tasks: readonly TaskRecord[], now: Date): TaskRecord[] {
  run.status = 'failed';
  run.failureReason = reason;
  run.updatedAt = now;
  const stage = run.stages[run.currentStage];
  if (stage && (stage.status === 'running' || stage.status === 'pending')) run.stages[run.currentStage] = { ...stage, status: 'failed', completedAt: now };
  const cancelled: TaskRecord[] = [];
  for (const t of tasks) {
    if (t.status !== 'posting' && t.status !== 'open' && t.status !== 'awarded') continue;
    run.committed -= committedOf(t.status, t.price);
    cancelled.push({ ...t, status: 'cancelled', failureReason: `run failed: ${reason}`, updatedAt: now });
  }
  return cancelled;
}
