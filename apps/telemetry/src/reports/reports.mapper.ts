import { formatAmount } from '@exchange/platform';
import { marketV1Integrity, marketV1IntegrityWire, type commonV1, type telemetryV1 } from '@exchange/proto';
import type { RollupRange } from '../domain/window';
import type { BytesToAtomsRollup, CoordinationRollup, MarketIntegrityRollup, ReportActor, Volume, WeeklyReport } from './report-types';

// domain → proto for the weekly report and the rollups (int64 counts as decimal strings, amounts
// as decimal strings with their currency).

const s = (n: number) => String(n);
const opt = (n: number | undefined) => (n === undefined ? undefined : String(n));

export function actorOf(actor: telemetryV1.Actor | undefined): ReportActor | undefined {
  return actor === undefined ? undefined : { agentId: actor.agentId, operator: actor.operator };
}

export function toProtoMoney(volumes: readonly Volume[]): commonV1.Money[] {
  return volumes.map((v) => ({ amount: formatAmount(v.amount), currency: v.currency }));
}

export function toProtoWindow(range: RollupRange): telemetryV1.RollupWindow {
  return { window: range.window, from: range.from ?? undefined, asOf: range.asOf };
}

/** The state's wire name ("normal" when it never changed). */
export function integrityStateName(state: string | null): string {
  if (state === null) return 'normal';
  return marketV1IntegrityWire.integrityState.toWire(marketV1Integrity.integrityStateFromJSON(state)) ?? 'normal';
}

export function toProtoWeekly(r: WeeklyReport): telemetryV1.WeeklyReport {
  const c = r.contracts;
  return {
    weekStart: r.week.weekStart,
    weekEnd: r.week.weekEnd,
    contracts: {
      created: s(c.created),
      awarded: s(c.awarded),
      delivered: s(c.delivered),
      settled: s(c.settled),
      disputed: s(c.disputed),
      refunded: s(c.refunded),
      split: s(c.split),
      cancelled: s(c.cancelled),
      expired: s(c.expired),
    },
    settledVolume: toProtoMoney(r.settledVolume),
    medianTimeToSettleMs: opt(r.medianTimeToSettleMs),
    agentsRegistered: s(r.agentsRegistered),
    activeBuyers: s(r.activeBuyers),
    activeSellers: s(r.activeSellers),
    checkoutsCreated: s(r.checkoutsCreated),
    purchases: s(r.purchases),
    purchaseVolume: toProtoMoney(r.purchaseVolume),
    workflowRunsStarted: s(r.workflowRunsStarted),
    workflowRunsCompleted: s(r.workflowRunsCompleted),
    workflowRunsFailed: s(r.workflowRunsFailed),
    topTags: r.topTags.map((t) => ({ tag: t.tag, count: s(t.count) })),
    matchingSignals: {
      impressions: s(r.matchingSignals.impressions),
      clicks: s(r.matchingSignals.clicks),
      shortlists: s(r.matchingSignals.shortlists),
      awards: s(r.matchingSignals.awards),
    },
    eventsRecorded: s(r.eventsRecorded),
    includeSandbox: r.includeSandbox,
  };
}

export function toProtoIntegrity(r: MarketIntegrityRollup): telemetryV1.MarketIntegrityRollup {
  return {
    window: toProtoWindow(r.range),
    state: integrityStateName(r.state),
    stateChanges: s(r.stateChanges),
    killSwitchesSet: s(r.killSwitchesSet),
    erroneousClears: s(r.erroneousClears),
    disputesOpened: s(r.disputesOpened),
    disputesResolved: s(r.disputesResolved),
    refunds: s(r.refunds),
    splits: s(r.splits),
    buyerAliasUpdates: s(r.buyerAliasUpdates),
    resaleReviewsDecided: s(r.resaleReviewsDecided),
    agentsFrozen: s(r.agentsFrozen),
    agentsUnfrozen: s(r.agentsUnfrozen),
    disputeRate: r.disputeRate,
  };
}

export function toProtoBytesToAtoms(r: BytesToAtomsRollup): telemetryV1.BytesToAtomsRollup {
  return {
    window: toProtoWindow(r.range),
    purchases: s(r.purchases),
    volume: toProtoMoney(r.volume),
    fromContracts: s(r.fromContracts),
    fromContractsVolume: toProtoMoney(r.fromContractsVolume),
    fromWorkflows: s(r.fromWorkflows),
    fromWorkflowsVolume: toProtoMoney(r.fromWorkflowsVolume),
    originatedShare: r.originatedShare,
    merchants: r.merchants.map((m) => ({ merchantDomain: m.merchantDomain, purchases: s(m.purchases), volume: toProtoMoney(m.volume) })),
  };
}

export function toProtoCoordination(r: CoordinationRollup): telemetryV1.CoordinationRollup {
  return {
    window: toProtoWindow(r.range),
    threadsCreated: s(r.threadsCreated),
    postsCreated: s(r.postsCreated),
    contractsWithThreads: s(r.contractsWithThreads),
    participants: s(r.participants),
    workflowRunsStarted: s(r.workflowRunsStarted),
    workflowRunsCompleted: s(r.workflowRunsCompleted),
    workflowRunsFailed: s(r.workflowRunsFailed),
    workflowStagesCompleted: s(r.workflowStagesCompleted),
    workflowTasksPosted: s(r.workflowTasksPosted),
    workflowTasksSettled: s(r.workflowTasksSettled),
    workflowTasksRetried: s(r.workflowTasksRetried),
    medianRunDurationMs: opt(r.medianRunDurationMs),
  };
}
