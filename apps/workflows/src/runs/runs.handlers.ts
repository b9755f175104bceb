import { unary, type Logger } from '@exchange/platform';
import type { workflowsV1 } from '@exchange/proto';
import { walletPort } from '../clients/wallet.client';
import type { WorkflowsRuntime } from '../service/runtime';
import { engineOf } from './run-engine.service';
import { RunsService } from './runs.service';
import * as map from './runs.mapper';

/** The runs RPCs: proto in, proto out. */
export function runsHandlers(r: WorkflowsRuntime, logger: Logger): Pick<workflowsV1.WorkflowsServiceServer, 'createRun' | 'listRuns' | 'getRun' | 'listRunContracts'> {
  const s = new RunsService({ pool: r.pool, agents: r.agents, clock: r.clock, wallet: walletPort(r.wallet, r.logger), engine: engineOf(r) });
  return {
    createRun: unary(logger, 'CreateRun', async (req: workflowsV1.CreateRunRequest) => {
      const { run, replayed } = await s.createRun(map.createRunInput(req), map.actorOf(req.actor));
      return { run: map.toProtoRun(run), idempotentReplayed: replayed };
    }),
    getRun: unary(logger, 'GetRun', async (req: workflowsV1.GetRunRequest) => ({
      run: map.toProtoRun(await s.getRun(req.workflowRunId, map.actorOf(req.actor))),
    })),
    listRuns: unary(logger, 'ListRuns', async (req: workflowsV1.ListRunsRequest) => {
      const page = await s.listRuns(
        { template: map.optionalText(req.template), ownerAgentId: map.optionalText(req.ownerAgentId), status: map.runStatusFilter(req.status), page: map.pageRequest(req.page) },
        map.actorOf(req.actor),
      );
      return { runs: page.data.map(map.toProtoRun), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    listRunContracts: unary(logger, 'ListRunContracts', async (req: workflowsV1.ListRunContractsRequest) => {
      const page = await s.listRunContracts(
        req.workflowRunId,
        { stage: map.optionalText(req.stage), shard: req.shard, status: map.contractStatusFilter(req.status), page: map.pageRequest(req.page) },
        map.actorOf(req.actor),
      );
      return { contracts: page.data.map(map.toProtoShardContract), page: { nextCursor: page.nextCursor ?? '' } };
    }),
  };
}
