import { workflowsV1Events } from '@exchange/proto';
import type pg from 'pg';
import { toProtoRun, toProtoStage, toProtoTask } from '../data/workflows.encode';
import type { Run, StageRecord, TaskRecord } from '../domain/model';
import type { TaskEventType } from '../task-events/task-event';
import { recordTaskEvent } from '../task-events/task-events.repo';

// The run, stage and task changes of one transaction, recorded together at its end: each is a task
// event log row and an outbox event exchange.workflows.<type> (recordTaskEvent takes the log lock,
// so flush() is the transaction's last statement).

type Pending =
  | { type: Extract<TaskEventType, `run.${string}`>; run: Run }
  | { type: Extract<TaskEventType, `stage.${string}`>; run: Run; stage: StageRecord }
  | { type: Extract<TaskEventType, `task.${string}`>; run: Run; task: TaskRecord };

export class RunEventBatch {
  private readonly pending: Pending[] = [];

  run(type: Extract<TaskEventType, `run.${string}`>, run: Run): void {
    // A snapshot: the payload is the run as of this change.
    this.pending.push({ type, run: { ...run, stages: run.stages.map((s) => ({ ...s })) } });
  }

  stage(type: Extract<TaskEventType, `stage.${string}`>, run: Run, stage: StageRecord): void {
    this.pending.push({ type, run, stage: { ...stage } });
  }

  task(type: Extract<TaskEventType, `task.${string}`>, run: Run, task: TaskRecord): void {
    this.pending.push({ type, run, task: { ...task } });
  }

  get size(): number {
    return this.pending.length;
  }

  /** Writes every event in order; call last in the transaction. */
  async flush(client: pg.ClientBase): Promise<void> {
    for (const e of this.pending) {
      const base = { type: e.type, workflowRunId: e.run.workflowRunId, ownerAgentId: e.run.ownerAgentId };
      if ('task' in e) {
        await recordTaskEvent(client, {
          ...base,
          stage: e.task.stageName,
          shard: e.task.shard,
          taskId: e.task.taskId,
          contractId: e.task.contractId ?? undefined,
          data: workflowsV1Events.TaskChanged.toJSON({ task: toProtoTask(e.task) }) as Record<string, unknown>,
        });
      } else if ('stage' in e) {
        await recordTaskEvent(client, {
          ...base,
          stage: e.stage.name,
          data: workflowsV1Events.StageChanged.toJSON({ workflowRunId: e.run.workflowRunId, stage: toProtoStage(e.stage) }) as Record<string, unknown>,
        });
      } else {
        await recordTaskEvent(client, { ...base, data: workflowsV1Events.RunChanged.toJSON({ run: toProtoRun(e.run) }) as Record<string, unknown> });
      }
    }
    this.pending.length = 0;
  }
}
