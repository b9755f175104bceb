import { errors } from '@exchange/platform';
import type { RollupRange } from '../domain/window';
import type { ReportWeek } from '../domain/window-week';

// What the weekly report and the rollups answer (README "Reports and outcome metrics"); amounts
// are micro-units, one entry per currency sorted by currency.

export interface Volume {
  currency: string;
  amount: bigint;
}

export interface ContractCounts {
  created: number;
  awarded: number;
  delivered: number;
  settled: number;
  disputed: number;
  refunded: number;
  split: number;
  cancelled: number;
  expired: number;
}

export const CONTRACT_VERBS: ReadonlyArray<keyof ContractCounts> = ['created', 'awarded', 'delivered', 'settled', 'disputed', 'refunded', 'split', 'cancelled', 'expired'];

export interface SignalCounts {
  impressions: number;
  clicks: number;
  shortlists: number;
  awards: number;
}

export interface WeeklyReport {
  week: ReportWeek;
  contracts: ContractCounts;
  settledVolume: Volume[];
  medianTimeToSettleMs: number | undefined;
  agentsRegistered: number;
  activeBuyers: number;
  activeSellers: number;
  checkoutsCreated: number;
  purchases: number;
  purchaseVolume: Volume[];
  workflowRunsStarted: number;
  workflowRunsCompleted: number;
  workflowRunsFailed: number;
  topTags: Array<{ tag: string; count: number }>;
  matchingSignals: SignalCounts;
  eventsRecorded: number;
  includeSandbox: boolean;
}

export interface MarketIntegrityRollup {
  range: RollupRange;
  /** The proto JSON name of the state (INTEGRITY_STATE_…), null when it never changed. */
  state: string | null;
  stateChanges: number;
  killSwitchesSet: number;
  erroneousClears: number;
  disputesOpened: number;
  disputesResolved: number;
  refunds: number;
  splits: number;
  buyerAliasUpdates: number;
  resaleReviewsDecided: number;
  agentsFrozen: number;
  agentsUnfrozen: number;
  disputeRate: number | undefined;
}

export interface MerchantVolume {
  merchantDomain: string;
  purchases: number;
  volume: Volume[];
}

export interface BytesToAtomsRollup {
  range: RollupRange;
  purchases: number;
  volume: Volume[];
  fromContracts: number;
  fromContractsVolume: Volume[];
  fromWorkflows: number;
  fromWorkflowsVolume: Volume[];
  originatedShare: number | undefined;
  merchants: MerchantVolume[];
}

export interface CoordinationRollup {
  range: RollupRange;
  threadsCreated: number;
  postsCreated: number;
  contractsWithThreads: number;
  participants: number;
  workflowRunsStarted: number;
  workflowRunsCompleted: number;
  workflowRunsFailed: number;
  workflowStagesCompleted: number;
  workflowTasksPosted: number;
  workflowTasksSettled: number;
  workflowTasksRetried: number;
  medianRunDurationMs: number | undefined;
}

export interface ReportActor {
  agentId: string;
  operator: boolean;
}

/** The weekly report and the rollups are the operator's (403 operator_required otherwise). */
export function requireOperator(actor: ReportActor | undefined): void {
  if (!actor?.operator) throw errors.permissionDenied('operator_required', 'only the operator may read telemetry reports and rollups');
}
