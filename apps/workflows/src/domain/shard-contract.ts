// How a shard contract names its task (pure): the labels the market stores and echoes in every
// contract event, and the deterministic idempotency key that makes a re-post after a crash return
// the contract already created instead of a second one.

export const LABEL_RUN = 'workflow_run_id';
export const LABEL_STAGE = 'stage';
export const LABEL_SHARD = 'shard';
export const LABEL_ATTEMPT = 'attempt';

export interface ShardKey {
  workflowRunId: string;
  stageIndex: number;
  shard: number;
  attempt: number;
}

export interface ShardLabels {
  workflowRunId: string;
  /** The stage's name. */
  stage: string;
  shard: number;
  attempt: number;
}

export function shardLabels(l: ShardLabels): Record<string, string> {
  return { [LABEL_RUN]: l.workflowRunId, [LABEL_STAGE]: l.stage, [LABEL_SHARD]: String(l.shard), [LABEL_ATTEMPT]: String(l.attempt) };
}

const INDEX = /^(0|[1-9]\d{0,5})$/;

/** The shard a contract's labels name, or null for a contract that is not one of ours. */
export function parseShardLabels(labels: Readonly<Record<string, string>> | undefined): ShardLabels | null {
  if (!labels) return null;
  const run = labels[LABEL_RUN];
  const stage = labels[LABEL_STAGE];
  const shard = labels[LABEL_SHARD];
  const attempt = labels[LABEL_ATTEMPT];
  if (!run || !stage || shard === undefined || attempt === undefined || !INDEX.test(shard) || !INDEX.test(attempt)) return null;
  return { workflowRunId: run, stage, shard: Number(shard), attempt: Number(attempt) };
}

/** `workflow:<run_id>:<stage_index>:<shard>:<attempt>`. */
export function postingKey(k: ShardKey): string {
  return `workflow:${k.workflowRunId}:${k.stageIndex}:${k.shard}:${k.attempt}`;
}

/** The key of the cancel a failed run sends for one task's contract. */
export function cancelKey(taskId: string): string {
  return `workflow-cancel:${taskId}`;
}
