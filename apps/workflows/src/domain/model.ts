// The workflows domain: runs of stages, each stage a set of shards, each shard attempt a task that
// mirrors one market contract (DESIGN §4 "Workflows"). Money is bigint micro-units in the run's one
// currency; statuses are the wire names of workflows.proto.

export type RunStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type StageStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type TaskStatus = 'posting' | 'open' | 'awarded' | 'delivered' | 'disputed' | 'settled' | 'failed' | 'cancelled';
export type VerificationMode = 'verifier' | 'buyer' | 'auto';
/** The market's contract statuses (market.proto wire names). */
export type ContractStatus =
  | 'open'
  | 'awarded'
  | 'delivered'
  | 'accepted'
  | 'settled'
  | 'disputed'
  | 'refunded'
  | 'split'
  | 'cancelled'
  | 'expired'
  | 'corrected';

/** What each shard contract of a stage asks for (budget = ONE shard's). */
export interface ShardContractSpec {
  title: string;
  description: string;
  tags: string[];
  budget: bigint;
  currency: string;
  verificationMode: VerificationMode;
  acceptanceCriteria: string;
  verifierId: string | null;
  deadlineSeconds: number;
}

export interface StageRecord {
  workflowRunId: string;
  index: number;
  name: string;
  shards: number;
  contract: ShardContractSpec;
  status: StageStatus;
  settledShards: number;
  inputRefs: string[];
  outputRefs: string[];
  startedAt: Date | null;
  completedAt: Date | null;
}

export interface RunRecord {
  workflowRunId: string;
  template: string;
  ownerAgentId: string;
  status: RunStatus;
  inputRefs: string[];
  currentStage: number;
  maxShardAttempts: number;
  currency: string;
  budget: bigint;
  spent: bigint;
  committed: bigint;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/** A run with its stages (index order). */
export interface Run extends RunRecord {
  stages: StageRecord[];
}

export interface TaskRecord {
  taskId: string;
  workflowRunId: string;
  stageIndex: number;
  stageName: string;
  shard: number;
  attempt: number;
  status: TaskStatus;
  contractId: string | null;
  contractStatus: ContractStatus | null;
  sellerId: string | null;
  price: bigint | null;
  currency: string;
  inputRefs: string[];
  resultRefs: string[];
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  settledAt: Date | null;
}

/** Who calls (the request's Actor): the acting agent, or the operator. */
export interface Actor {
  agentId: string | null;
  operator: boolean;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** The run's output: the last stage's outputs once it completed. */
export function runOutputRefs(run: Run): string[] {
  if (run.status !== 'completed') return [];
  return run.stages.at(-1)?.outputRefs ?? [];
}
