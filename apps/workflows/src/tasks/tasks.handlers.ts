import { unary, type Logger } from '@exchange/platform';
import type { workflowsV1 } from '@exchange/proto';
import * as map from './tasks.mapper';
import type { WorkflowsRuntime } from '../service/runtime';
import { TasksService } from './tasks.service';

/** ListTasks: proto in, proto out. */
export function tasksHandlers(r: WorkflowsRuntime, logger: Logger): Pick<workflowsV1.WorkflowsServiceServer, 'listTasks'> {
  const s = new TasksService({ pool: r.pool });
  return {
    listTasks: unary(logger, 'ListTasks', async (req: workflowsV1.ListTasksRequest) => {
      const page = await s.listTasks(
        { workflowRunId: map.optionalText(req.workflowRunId), stage: map.optionalText(req.stage), status: map.taskStatusFilter(req.status), page: map.pageRequest(req.page) },
        map.actorOf(req.actor),
      );
      return { tasks: page.data.map(map.toProtoTask), page: { nextCursor: page.nextCursor ?? '' } };
    }),
  };
}
