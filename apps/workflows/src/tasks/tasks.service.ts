import { listOwner, readable } from '../domain/access';
import type { Actor, Page, TaskRecord, TaskStatus } from '../domain/model';
import * as runsRepo from '../runs/runs.repo';
import { pageOf, type PageRequest } from '../runs/runs.service';
import type { WorkflowsRuntime } from '../service/runtime';
import * as tasksRepo from './tasks.repo';

export type TasksDeps = Pick<WorkflowsRuntime, 'pool'>;

/** Tasks: the shard attempts of runs, as their contracts stand. */
export class TasksService {
  constructor(private readonly deps: TasksDeps) {}

  /**
   * Newest first. An agent sees the tasks of its own runs only; a run filter naming another
   * agent's run is 404 workflow_run_not_found, as for GetRun.
   */
  async listTasks(q: { workflowRunId?: string; stage?: string; status?: TaskStatus; page?: PageRequest }, actor: Actor): Promise<Page<TaskRecord>> {
    const ownerAgentId = listOwner(actor, undefined);
    if (q.workflowRunId !== undefined) readable(await runsRepo.getRun(this.deps.pool, q.workflowRunId), q.workflowRunId, actor);
    return tasksRepo.listTasks(this.deps.pool, { workflowRunId: q.workflowRunId, stage: q.stage, status: q.status, ownerAgentId }, pageOf(q.page));
  }
}
