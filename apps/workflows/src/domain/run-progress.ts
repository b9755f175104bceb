import type { TaskRecord } from './model';

// What a task change means for its run (pure): retry a failed shard or fail the run, complete a
// stage once every shard settled, and which references the next stage starts from.

export type FailureDecision = { kind: 'retry'; attempt: number } | { kind: 'fail_run'; reason: string };

/** A failed attempt below the limit is re-posted as attempt + 1; at the limit the run fails. */
export function decideFailure(task: Pick<TaskRecord, 'stageName' | 'shard' | 'attempt' | 'failureReason'>, maxShardAttempts: number): FailureDecision {
  if (task.attempt < maxShardAttempts) return { kind: 'retry', attempt: task.attempt + 1 };
  const why = task.failureReason ? ` (${task.failureReason})` : '';
  return { kind: 'fail_run', reason: `stage ${task.stageName} shard ${task.shard} failed ${task.attempt} time${task.attempt === 1 ? '' : 's'}${why}` };
}

/**
 * The stage's outputs when every shard 0..shards-1 has a settled task: each shard's result refs,
 * concatenated in shard order (the next stage's inputs); null while a shard is unsettled.
 */
export function stageOutputs(shards: number, tasks: ReadonlyArray<Pick<TaskRecord, 'shard' | 'status' | 'resultRefs'>>): string[] | null {
  const settled = new Map<number, string[]>();
  for (const t of tasks) if (t.status === 'settled') settled.set(t.shard, t.resultRefs);
  if (settled.size < shards) return null;
  const out: string[] = [];
  for (let shard = 0; shard < shards; shard++) {
    const refs = settled.get(shard);
    if (refs === undefined) return null;
    out.push(...refs);
  }
  return out;
}

/** A market result as the settlement reads it. */
export interface ResultFacts {
  resultId: string;
  accepted: boolean;
  artifactRefs: string[];
}

/**
 * The result references of a settled shard: the accepted result's artifact refs, or
 * `result:<result_id>` when it carries none (so every settled shard yields a reference). No
 * accepted result (e.g. settled by a dispute ruling) → [].
 */
export function resultRefsOf(results: readonly ResultFacts[]): string[] {
  const accepted = results.filter((r) => r.accepted).at(-1);
  if (!accepted) return [];
  return accepted.artifactRefs.length > 0 ? [...accepted.artifactRefs] : [`result:${accepted.resultId}`];
}
