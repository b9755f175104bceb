import type { ContractStatus, ShardContractSpec, TaskRecord } from './model';
import type { ResultFacts } from './run-progress';

// What the engine asks of other services, implemented by src/clients (gRPC).

/** One shard contract to post in the market. */
export interface ShardPosting {
  idempotencyKey: string;
  buyerId: string;
  spec: ShardContractSpec;
  deadline: Date;
  labels: Record<string, string>;
  inputRefs: string[];
}

export interface PostedContract {
  contractId: string;
  status: ContractStatus;
}

export interface MarketPort {
  /** CreateContract (idempotent by key: a re-post returns the contract already created). */
  postShardContract(p: ShardPosting): Promise<PostedContract>;
  /** CancelContract; the contract's status after the call. */
  cancelContract(contractId: string, idempotencyKey: string, reason: string): Promise<ContractStatus>;
  /** The contract's results (settlement reads the accepted one's references). */
  results(contractId: string): Promise<ResultFacts[]>;
}

export interface WalletPort {
  /** The agent's available balance in `currency` (0 when it has none). */
  available(agentId: string, currency: string): Promise<bigint>;
}

/**
 * The market refused a request for good (validation, unknown verifier, frozen buyer…): retrying
 * the same request cannot succeed. Any other failure is transient and left to the recovery worker.
 */
export class MarketRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MarketRefusal';
  }
}

/** Test hooks of the engine (never set in production). */
export interface EngineHooks {
  /** Crash point: runs after the market answered CreateContract, before the answer is stored. */
  afterContractPosted?(task: TaskRecord): Promise<void>;
  /** Crash point: runs after a stage's tasks were committed as posting, before any is posted. */
  afterStageCommitted?(tasks: readonly TaskRecord[]): Promise<void>;
}
