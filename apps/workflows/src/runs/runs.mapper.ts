import { errors } from '@exchange/platform';
import { marketV1Wire, workflowsV1, workflowsV1Wire, type WireEnum } from '@exchange/proto';
import type { Actor, ContractStatus, RunStatus, VerificationMode } from '../domain/model';
import type { CreateRunInput } from './run-input';
import type { PageRequest } from './runs.service';

export { toProtoRun, toProtoShardContract, toProtoTask } from '../data/workflows.encode';

// Proto ⇄ domain for the runs RPCs (enums through the generated wire tables).

export function actorOf(actor: workflowsV1.Actor | undefined): Actor {
  return { agentId: actor?.agentId ? actor.agentId : null, operator: actor?.operator === true };
}

/** An optional filter enum: absent or UNSPECIFIED → no filter; an unknown number → 400. */
export function optionalEnum<D extends string>(table: WireEnum<number, D>, value: number | undefined, field: string): D | undefined {
  if (value === undefined || value === 0) return undefined;
  const d = table.toWire(value);
  if (d === undefined) throw errors.invalidArgument('validation_failed', `${field} is not a known value`, { field });
  return d;
}

/** An optional string filter: absent or empty → no filter. */
export const optionalText = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

export function pageRequest(page: { limit: number; cursor: string } | undefined): PageRequest | undefined {
  return page === undefined ? undefined : { limit: page.limit, cursor: page.cursor };
}

export function createRunInput(req: workflowsV1.CreateRunRequest): CreateRunInput {
  return {
    ownerAgentId: req.ownerAgentId,
    template: req.template,
    inputRefs: req.inputRefs,
    maxShardAttempts: req.maxShardAttempts,
    idempotencyKey: req.idempotencyKey,
    stages: req.stages.map((s) => ({
      name: s.name,
      shards: s.shards,
      contract:
        s.contract === undefined
          ? undefined
          : {
              title: s.contract.title,
              description: s.contract.description,
              tags: s.contract.tags,
              budget: s.contract.budget === undefined ? undefined : { amount: s.contract.budget.amount, currency: s.contract.budget.currency },
              verificationMode: marketV1Wire.verificationMode.toWire(s.contract.verificationMode) as VerificationMode | undefined,
              acceptanceCriteria: s.contract.acceptanceCriteria,
              verifierId: s.contract.verifierId,
              deadlineSeconds: s.contract.deadlineSeconds,
            },
    })),
  };
}

export const runStatusFilter = (value: number | undefined): RunStatus | undefined => optionalEnum(workflowsV1Wire.runStatus, value, 'status');
export const contractStatusFilter = (value: number | undefined): ContractStatus | undefined =>
  optionalEnum(marketV1Wire.contractStatus, value, 'status') as ContractStatus | undefined;
