import { errors, unary, type Logger } from '@exchange/platform';
import type { workflowsV1 } from '@exchange/proto';
import type { WorkflowsRuntime } from '../service/runtime';

// Placeholder until the area lands (issue 17): every RPC answers unimplemented.
export function exportHandlers(_r: WorkflowsRuntime, logger: Logger): Pick<workflowsV1.WorkflowsServiceServer, 'exportRun'> {
  const todo = (name: string) => unary(logger, name, async () => { throw errors.failedPrecondition('unimplemented', name + ' is not built yet'); });
  return {
    exportRun: todo('exportRun'),
  };
}
