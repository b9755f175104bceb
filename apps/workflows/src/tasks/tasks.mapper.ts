import { workflowsV1Wire } from '@exchange/proto';
import type { TaskStatus } from '../domain/model';
import { optionalEnum } from '../runs/runs.mapper';

export { actorOf, optionalText, pageRequest, toProtoTask } from '../runs/runs.mapper';

// Proto ⇄ domain for ListTasks.

export const taskStatusFilter = (value: number | undefined): TaskStatus | undefined => optionalEnum(workflowsV1Wire.taskStatus, value, 'status');
