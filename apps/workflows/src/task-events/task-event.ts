// The task event log (DESIGN §4 "Workflows"): every run, stage and task change, in the order it
// committed. Subscriptions read it; each event is also published as exchange.workflows.<type>.

export const TASK_EVENT_TYPES = [
  'run.started',
  'run.completed',
  'run.failed',
  'run.cancelled',
  'stage.started',
  'stage.completed',
  'task.posted',
  'task.awarded',
  'task.delivered',
  'task.disputed',
  'task.settled',
  'task.failed',
  'task.retried',
  'task.cancelled',
] as const;
export type TaskEventType = (typeof TASK_EVENT_TYPES)[number];

export function isTaskEventType(value: string): value is TaskEventType {
  return (TASK_EVENT_TYPES as readonly string[]).includes(value);
}

/** What a state change records (the seq and occurred_at are the log's). */
export interface TaskEventInput {
  type: TaskEventType;
  workflowRunId: string;
  /** The run's owner: whose subscriptions may see the event. */
  ownerAgentId: string;
  stage?: string;
  shard?: number;
  taskId?: string;
  contractId?: string;
  /** JSON payload: the proto JSON of RunChanged / StageChanged / TaskChanged (events.proto). */
  data: Record<string, unknown>;
  /** "agent:<id>", "operator" or "service:workflows". */
  actor?: string;
}

export interface TaskEventRecord {
  eventId: string;
  /** Position in the log, strictly increasing in commit order (bigint as a decimal string). */
  seq: string;
  type: TaskEventType;
  workflowRunId: string;
  ownerAgentId: string;
  stage: string | null;
  shard: number | null;
  taskId: string | null;
  contractId: string | null;
  data: Record<string, unknown>;
  occurredAt: Date;
}
