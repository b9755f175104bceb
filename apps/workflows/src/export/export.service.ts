import { docketJson } from '@exchange/casefile';
import { errors } from '@exchange/platform';
import type { WorkflowsRuntime } from '../service/runtime';
import type { Actor } from '../subscriptions/subscription';
import { readRunSources } from './export.repo';
import { runDocket, shardContractIds, type ContractDocketSource } from './run-docket';

export type ExportDeps = Pick<WorkflowsRuntime, 'pool' | 'exchangeSigner' | 'clock'>;

/** ExportRun: the run's casefile docket, signed by the exchange key (operator only). */
export class ExportService {
  constructor(private readonly deps: ExportDeps) {}

  /** The signed docket as canonical JSON; `dockets` fetches each shard contract's docket. */
  async exportRun(actor: Actor, workflowRunId: string, dockets: ContractDocketSource): Promise<string> {
    if (!actor.operator) throw errors.permissionDenied('operator_required', 'only the operator may export a run');
    const sources = await readRunSources(this.deps.pool, workflowRunId);
    if (sources === null) throw errors.notFound('workflow_run', workflowRunId);
    // One contract at a time: a run has at most 20 stages × 100 shards × a few attempts, and the
    // registry builds each docket from several services; order keeps the docket deterministic.
    const contractDockets = [];
    for (const contractId of shardContractIds(sources.tasks)) contractDockets.push(await dockets.contractDocket(contractId));
    return docketJson(runDocket(sources, contractDockets, this.deps.exchangeSigner.privateKey, this.deps.clock()));
  }
}
