import type { RunEngine } from '../runs/run-engine.service';
import * as runsRepo from '../runs/runs.repo';
import type { WorkflowsRuntime } from '../service/runtime';
import * as tasksRepo from '../tasks/tasks.repo';

// The recovery round (periodic, and once before serving): finishes what a crash or an unreachable
// market left half done. Every call it makes is idempotent (same CreateContract key per attempt,
// same CancelContract key per task), so racing the request that is still posting is harmless.

const BATCH = 100;

export type RecoveryDeps = Pick<WorkflowsRuntime, 'pool' | 'clock'> & { engine: RunEngine };

/** One round; returns how many runs, postings and cancels it handled. */
export async function recoverRuns(deps: RecoveryDeps, minAgeMs: number): Promise<number> {
  let handled = 0;
  // Runs stored without their first stage started.
  for (const runId of await runsRepo.pendingRunIds(deps.pool, BATCH)) {
    await deps.engine.followUp(await deps.engine.startPending(runId));
    handled++;
  }
  // Shard contracts not posted yet (or whose answer was never stored).
  const olderThan = new Date(deps.clock().getTime() - minAgeMs);
  for (const task of await tasksRepo.postingTasks(deps.pool, olderThan, BATCH)) {
    await deps.engine.followUp(await deps.engine.postTask(task));
    handled++;
  }
  // Contracts of cancelled tasks the market still shows live (a lost cancel).
  for (const task of await tasksRepo.tasksToCancel(deps.pool, BATCH)) {
    await deps.engine.cancelTask(task);
    handled++;
  }
  return handled;
}
