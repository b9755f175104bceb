import { median, rate } from '../domain/rates';
import { resolveRollupRange } from '../domain/window';
import { resolveReportWeek } from '../domain/window-week';
import type { TelemetryRuntime } from '../service/runtime';
import {
  CONTRACT_VERBS,
  requireOperator,
  type BytesToAtomsRollup,
  type ContractCounts,
  type CoordinationRollup,
  type MarketIntegrityRollup,
  type ReportActor,
  type WeeklyReport,
} from './report-types';
import { bytesToAtoms, runDurationMs, sumVolumes } from './rollup-math';
import { awardedAndDisputed, completedRuns, coordinationDistincts, integrityStateAt, purchaseGroups } from './rollups.repo';
import { rangeSpan, weekSpan } from './span';
import { countEventTypes } from './span-sql.repo';
import { activeParties, contractVerbCounts, eventsIn, purchaseTotals, settledContracts, signalCounts, topTags } from './weekly.repo';

export type ReportsDeps = Pick<TelemetryRuntime, 'pool' | 'clock'>;

export interface RollupRequest {
  actor: ReportActor | undefined;
  window: string | undefined;
  asOf: Date | undefined;
}

const T = {
  registered: 'exchange.identity.agent.registered',
  frozen: 'exchange.identity.agent.frozen',
  unfrozen: 'exchange.identity.agent.unfrozen',
  checkoutCreated: 'exchange.commerce.checkout.created',
  runStarted: 'exchange.workflows.run.started',
  runCompleted: 'exchange.workflows.run.completed',
  runFailed: 'exchange.workflows.run.failed',
  stageCompleted: 'exchange.workflows.stage.completed',
  taskPosted: 'exchange.workflows.task.posted',
  taskSettled: 'exchange.workflows.task.settled',
  taskRetried: 'exchange.workflows.task.retried',
  stateChanged: 'exchange.market.integrity.state_changed',
  killSwitch: 'exchange.market.integrity.kill_switch_set',
  erroneousClear: 'exchange.market.integrity.erroneous_clear',
  disputeOpened: 'exchange.market.dispute.opened',
  disputeResolved: 'exchange.market.dispute.resolved',
  refunded: 'exchange.market.contract.refunded',
  split: 'exchange.market.contract.split',
  aliasUpdated: 'exchange.market.contract.buyer_alias_updated',
  resaleDecided: 'exchange.market.resale_review.decided',
  threadCreated: 'exchange.market.thread.created',
  postCreated: 'exchange.market.post.created',
} as const;

const TOP_TAGS = 10;

/** The operator's weekly report and rollups, read from the event store and the facts. */
export class ReportsService {
  constructor(private readonly deps: ReportsDeps) {}

  async weekly(actor: ReportActor | undefined, weekStart: string | undefined, includeSandbox: boolean): Promise<WeeklyReport> {
    requireOperator(actor);
    const week = resolveReportWeek(weekStart, this.deps.clock());
    const span = weekSpan(week);
    const db = this.deps.pool;
    const [verbs, settled, parties, tags, purchases, signals, events, counts] = await Promise.all([
      contractVerbCounts(db, span, includeSandbox),
      settledContracts(db, span, includeSandbox),
      activeParties(db, span, includeSandbox),
      topTags(db, span, includeSandbox, TOP_TAGS),
      purchaseTotals(db, span),
      signalCounts(db, span),
      eventsIn(db, span),
      countEventTypes(db, [T.registered, T.checkoutCreated, T.runStarted, T.runCompleted, T.runFailed], span),
    ]);
    const contracts = Object.fromEntries(CONTRACT_VERBS.map((v) => [v, verbs.get(v) ?? 0])) as unknown as ContractCounts;
    const n = (type: string) => counts.get(type) ?? 0;
    return {
      week,
      contracts,
      settledVolume: sumVolumes(settled),
      medianTimeToSettleMs: median(settled.map((s) => s.settleMs)),
      agentsRegistered: n(T.registered),
      activeBuyers: parties.buyers,
      activeSellers: parties.sellers,
      checkoutsCreated: n(T.checkoutCreated),
      purchases: purchases.purchases,
      purchaseVolume: purchases.volume,
      workflowRunsStarted: n(T.runStarted),
      workflowRunsCompleted: n(T.runCompleted),
      workflowRunsFailed: n(T.runFailed),
      topTags: tags,
      matchingSignals: {
        impressions: signals.get('impression') ?? 0,
        clicks: signals.get('click') ?? 0,
        shortlists: signals.get('shortlist') ?? 0,
        awards: signals.get('award') ?? 0,
      },
      eventsRecorded: events,
      includeSandbox,
    };
  }

  async marketIntegrity(req: RollupRequest): Promise<MarketIntegrityRollup> {
    requireOperator(req.actor);
    const range = resolveRollupRange(req.window, req.asOf, this.deps.clock());
    const types = [T.stateChanged, T.killSwitch, T.erroneousClear, T.disputeOpened, T.disputeResolved, T.refunded, T.split, T.aliasUpdated, T.resaleDecided, T.frozen, T.unfrozen];
    const span = rangeSpan(range);
    const [counts, state, awards] = await Promise.all([
      countEventTypes(this.deps.pool, types, span),
      integrityStateAt(this.deps.pool, range.asOf),
      awardedAndDisputed(this.deps.pool, span, range.asOf),
    ]);
    const n = (type: string) => counts.get(type) ?? 0;
    return {
      range,
      state,
      stateChanges: n(T.stateChanged),
      killSwitchesSet: n(T.killSwitch),
      erroneousClears: n(T.erroneousClear),
      disputesOpened: n(T.disputeOpened),
      disputesResolved: n(T.disputeResolved),
      refunds: n(T.refunded),
      splits: n(T.split),
      buyerAliasUpdates: n(T.aliasUpdated),
      resaleReviewsDecided: n(T.resaleDecided),
      agentsFrozen: n(T.frozen),
      agentsUnfrozen: n(T.unfrozen),
      disputeRate: rate(awards.disputed, awards.awarded),
    };
  }

  async bytesToAtoms(req: RollupRequest): Promise<BytesToAtomsRollup> {
    requireOperator(req.actor);
    const range = resolveRollupRange(req.window, req.asOf, this.deps.clock());
    return { range, ...bytesToAtoms(await purchaseGroups(this.deps.pool, rangeSpan(range))) };
  }

  async coordination(req: RollupRequest): Promise<CoordinationRollup> {
    requireOperator(req.actor);
    const range = resolveRollupRange(req.window, req.asOf, this.deps.clock());
    const span = rangeSpan(range);
    const types = [T.threadCreated, T.postCreated, T.runStarted, T.runCompleted, T.runFailed, T.stageCompleted, T.taskPosted, T.taskSettled, T.taskRetried];
    const [counts, distinct, runs] = await Promise.all([
      countEventTypes(this.deps.pool, types, span),
      coordinationDistincts(this.deps.pool, span),
      completedRuns(this.deps.pool, span),
    ]);
    const n = (type: string) => counts.get(type) ?? 0;
    const durations = runs.map((r) => runDurationMs(r.run, r.occurredAt)).filter((d): d is number => d !== null);
    return {
      range,
      threadsCreated: n(T.threadCreated),
      postsCreated: n(T.postCreated),
      contractsWithThreads: distinct.contractsWithThreads,
      participants: distinct.participants,
      workflowRunsStarted: n(T.runStarted),
      workflowRunsCompleted: n(T.runCompleted),
      workflowRunsFailed: n(T.runFailed),
      workflowStagesCompleted: n(T.stageCompleted),
      workflowTasksPosted: n(T.taskPosted),
      workflowTasksSettled: n(T.taskSettled),
      workflowTasksRetried: n(T.taskRetried),
      medianRunDurationMs: median(durations),
    };
  }
}
