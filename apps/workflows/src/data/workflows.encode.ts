import { formatAmount } from '@exchange/platform';
import { marketV1, marketV1Wire, workflowsV1, workflowsV1Wire } from '@exchange/proto';
import { runOutputRefs, type Run, type ShardContractSpec, type StageRecord, type TaskRecord } from '../domain/model';

// Domain → proto, shared by the gRPC mappers and the event payloads (data role: the outbox writers
// may not import transport). Enums go through the generated wire tables.

const money = (amount: bigint, currency: string) => ({ amount: formatAmount(amount), currency });

export function toProtoContractSpec(s: ShardContractSpec): workflowsV1.ShardContractSpec {
  return {
    title: s.title,
    description: s.description,
    tags: s.tags,
    budget: money(s.budget, s.currency),
    verificationMode: marketV1Wire.verificationMode.fromWire(s.verificationMode) ?? marketV1.VerificationMode.VERIFICATION_MODE_UNSPECIFIED,
    acceptanceCriteria: s.acceptanceCriteria,
    verifierId: s.verifierId ?? undefined,
    deadlineSeconds: s.deadlineSeconds,
  };
}

export function toProtoStage(s: StageRecord): workflowsV1.Stage {
  return {
    name: s.name,
    index: s.index,
    shards: s.shards,
    contract: toProtoContractSpec(s.contract),
    status: workflowsV1Wire.stageStatus.fromWire(s.status) ?? workflowsV1.StageStatus.STAGE_STATUS_UNSPECIFIED,
    settledShards: s.settledShards,
    inputRefs: s.inputRefs,
    outputRefs: s.outputRefs,
    startedAt: s.startedAt ?? undefined,
    completedAt: s.completedAt ?? undefined,
  };
}

export function toProtoRun(r: Run): workflowsV1.Run {
  return {
    workflowRunId: r.workflowRunId,
    template: r.template,
    ownerAgentId: r.ownerAgentId,
    status: workflowsV1Wire.runStatus.fromWire(r.status) ?? workflowsV1.RunStatus.RUN_STATUS_UNSPECIFIED,
    stages: r.stages.map(toProtoStage),
    inputRefs: r.inputRefs,
    currentStage: r.currentStage,
    maxShardAttempts: r.maxShardAttempts,
    budget: money(r.budget, r.currency),
    spent: money(r.spent, r.currency),
    committed: money(r.committed, r.currency),
    failureReason: r.failureReason ?? undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    completedAt: r.completedAt ?? undefined,
    outputRefs: runOutputRefs(r),
  };
}

export function toProtoTask(t: TaskRecord): workflowsV1.Task {
  return {
    taskId: t.taskId,
    workflowRunId: t.workflowRunId,
    stage: t.stageName,
    stageIndex: t.stageIndex,
    shard: t.shard,
    attempt: t.attempt,
    status: workflowsV1Wire.taskStatus.fromWire(t.status) ?? workflowsV1.TaskStatus.TASK_STATUS_UNSPECIFIED,
    contractId: t.contractId ?? undefined,
    contractStatus: t.contractStatus === null ? undefined : marketV1Wire.contractStatus.fromWire(t.contractStatus),
    sellerId: t.sellerId ?? undefined,
    price: t.price === null ? undefined : money(t.price, t.currency),
    inputRefs: t.inputRefs,
    resultRefs: t.resultRefs,
    failureReason: t.failureReason ?? undefined,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    settledAt: t.settledAt ?? undefined,
  };
}

/** A task with a posted contract, as ListRunContracts shows it. */
export function toProtoShardContract(t: TaskRecord): workflowsV1.ShardContract {
  return {
    contractId: t.contractId ?? '',
    workflowRunId: t.workflowRunId,
    stage: t.stageName,
    stageIndex: t.stageIndex,
    shard: t.shard,
    attempt: t.attempt,
    taskId: t.taskId,
    status: (t.contractStatus === null ? undefined : marketV1Wire.contractStatus.fromWire(t.contractStatus)) ?? marketV1.ContractStatus.CONTRACT_STATUS_UNSPECIFIED,
    sellerId: t.sellerId ?? undefined,
    price: t.price === null ? undefined : money(t.price, t.currency),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}
