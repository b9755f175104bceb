import { errors, unary, type Logger } from '@exchange/platform';
import type { workflowsV1 } from '@exchange/proto';
import type { WorkflowsRuntime } from '../service/runtime';

// Placeholder until the area lands (issue 17): every RPC answers unimplemented.
export function runsHandlers(_r: WorkflowsRuntime, logger: Logger): Pick<workflowsV1.WorkflowsServiceServer, 'createRun' | 'listRuns' | 'getRun' | 'listRunContracts'> {
  const todo = (name: string) => unary(logger, name, async () => { throw errors.failedPrecondition('unimplemented', name + ' is not built yet'); });
  return {
    createRun: todo('createRun'),
    listRuns: todo('listRuns'),
    getRun: todo('getRun'),
    listRunContracts: todo('listRunContracts'),
  };
}
