import type { Server } from '@grpc/grpc-js';
import type { Logger } from '@exchange/platform';
import { mergeAreaHandlers, serviceArea } from '@exchange/service-host';
import { workflowsV1 } from '@exchange/proto';
import type { WorkflowsRuntime } from '../service/runtime';
import { runsHandlers } from '../runs/runs.handlers';
import { tasksHandlers } from '../tasks/tasks.handlers';
import { exportHandlers } from '../export/export.handlers';
import { subscriptionsHandlers } from '../subscriptions/subscriptions.handlers';

export const WORKFLOWS_SERVICE_NAME = 'exchange.workflows.v1.WorkflowsService';

// Every area of workflows, one entry each; their handlers together make WorkflowsService. Each
// area's handlers build that area's service from the runtime (taking only what it uses). Adding an
// area: its slice under src/<area>/ and one entry here.
export const AREAS = [
  serviceArea('runs', (r: WorkflowsRuntime, logger: Logger) => runsHandlers(r, logger)),
  serviceArea('tasks', (r: WorkflowsRuntime, logger: Logger) => tasksHandlers(r, logger)),
  serviceArea('export', (r: WorkflowsRuntime, logger: Logger) => exportHandlers(r, logger)),
  serviceArea('subscriptions', (r: WorkflowsRuntime, logger: Logger) => subscriptionsHandlers(r, logger)),
] as const;

/** WorkflowsService's handlers: every area's, merged. */
export function workflowsHandlers(r: WorkflowsRuntime, logger: Logger): workflowsV1.WorkflowsServiceServer {
  // Typed as the generated server: an RPC no area handles does not compile.
  return mergeAreaHandlers(AREAS, r, logger);
}

/** Adds WorkflowsService to the server libs/service-host starts (health is already there). */
export function registerWorkflows(server: Server, r: WorkflowsRuntime, logger: Logger): void {
  server.addService(workflowsV1.WorkflowsServiceService, workflowsHandlers(r, logger));
}
