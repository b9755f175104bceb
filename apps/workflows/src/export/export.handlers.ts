import { unary, type Logger } from '@exchange/platform';
import type { workflowsV1 } from '@exchange/proto';
import type { WorkflowsRuntime } from '../service/runtime';
import { actorOf } from '../subscriptions/subscriptions.mapper';
import { operatorCallOptions, RegistryContractDockets } from './contract-dockets.client';
import { ExportService } from './export.service';

/** ExportRun: operator only; the registry is asked as that operator (contract-dockets.client.ts). */
export function exportHandlers(r: WorkflowsRuntime, logger: Logger): Pick<workflowsV1.WorkflowsServiceServer, 'exportRun'> {
  const s = new ExportService({ pool: r.pool, exchangeSigner: r.exchangeSigner, clock: r.clock });
  return {
    exportRun: unary(logger, 'ExportRun', async (req: workflowsV1.ExportRunRequest, ctx) => ({
      docketJson: await s.exportRun(actorOf(req.actor), req.workflowRunId, new RegistryContractDockets(r.registry, operatorCallOptions(ctx))),
    })),
  };
}
