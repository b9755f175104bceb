import { telemetryV1Wire, type commonV1, type telemetryV1 } from '@exchange/proto';
import { contractChecks, isoOrNull, orNull, ServiceContractError } from '../../lib/mapper-kit';
import type { CategoryJson, CategoryObjectJson, EventsExportQueryJson, MatchingSignalJson, OperatorEventJson, PublicEventJson } from './feeds.schemas';
import { ROLLUP_WINDOWS, type OutcomeMetricsJson, type RollupQueryJson, type WeeklyReportJson } from './reports.schemas';

// Telemetry proto ⇄ REST (pure): int64 counts (decimal strings in proto) as integers, `seq` kept
// a string, optional rates and durations as null, event payloads (JSON text) as objects.

export class TelemetryContractError extends ServiceContractError {
  constructor(what: string) {
    super('telemetry', what);
    this.name = 'TelemetryContractError';
  }
}

const { required, enumToJson, iso, parsedJson } = contractChecks((what) => new TelemetryContractError(what));

/** An int64 count or duration (proto decimal string) as a JSON integer. */
const int = (value: string | undefined, what: string): number => {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isSafeInteger(n)) throw new TelemetryContractError(what);
  return n;
};
const intOrNull = (value: string | undefined, what: string): number | null => (value === undefined ? null : int(value, what));
const rate = (value: number | undefined): number | null => (value === undefined ? null : value);
const volume = (list: commonV1.Money[]) => list.map((m) => ({ amount: m.amount, currency: m.currency }));

function dataOf(text: string, what: string): Record<string, unknown> {
  const value = parsedJson(text, what);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TelemetryContractError(what);
  return value as Record<string, unknown>;
}

// ---- Requests ----

/** The event filter of a list or export query (absent fields: no filter). */
export function filterFromQuery(q: EventsExportQueryJson): telemetryV1.EventFilter {
  return {
    contractId: q.contract_id,
    listingId: q.listing_id,
    eventType: q.event_type,
    from: q.from === undefined ? undefined : new Date(q.from),
    to: q.to === undefined ? undefined : new Date(q.to),
  };
}

export function rollupQueryFromJson(q: RollupQueryJson): telemetryV1.RollupQuery {
  return { window: q.window ?? '7d', asOf: q.as_of === undefined ? undefined : new Date(q.as_of) };
}

// ---- Answers ----

export function signalToJson(res: telemetryV1.RecordMatchingSignalResponse): MatchingSignalJson {
  const s = required(res.signal, 'matching signal');
  return {
    signal_id: s.signalId,
    signal: enumToJson(telemetryV1Wire.signalType, s.signal, 'signal type'),
    recorded_by: s.recordedBy === '' ? null : s.recordedBy,
    contract_id: s.contractId,
    seller_id: s.sellerId,
    listing_id: orNull(s.listingId),
    request_id: orNull(s.requestId),
    occurred_at: iso(s.occurredAt, 'signal occurred_at'),
    recorded_at: iso(s.recordedAt, 'signal recorded_at'),
    duplicate: res.duplicate,
  };
}

export function categoryToJson(c: telemetryV1.Category | undefined): CategoryJson {
  const v = required(c, 'category');
  return {
    tag: v.tag,
    object_count: int(v.objectCount, 'category object_count'),
    contract_count: int(v.contractCount, 'category contract_count'),
    listing_count: int(v.listingCount, 'category listing_count'),
    first_seen_at: iso(v.firstSeenAt, 'category first_seen_at'),
    last_seen_at: iso(v.lastSeenAt, 'category last_seen_at'),
  };
}

export function categoryObjectToJson(o: telemetryV1.CategoryObject): CategoryObjectJson {
  if (o.kind !== 'contract' && o.kind !== 'listing' && o.kind !== 'thread') throw new TelemetryContractError('category object kind');
  return { tag: o.tag, kind: o.kind, object_id: o.objectId, title: o.title, sandbox: o.sandbox, first_seen_at: iso(o.firstSeenAt, 'category object first_seen_at') };
}

export function publicEventToJson(e: telemetryV1.PublicEvent): PublicEventJson {
  return {
    id: e.eventId,
    type: e.type,
    subject_id: e.subjectId,
    occurred_at: iso(e.occurredAt, 'event occurred_at'),
    contract_id: orNull(e.contractId),
    listing_id: orNull(e.listingId),
    data: dataOf(e.dataJson, 'public event data_json'),
    seq: e.seq,
  };
}

export function operatorEventToJson(e: telemetryV1.OperatorEvent): OperatorEventJson {
  return {
    id: e.eventId,
    type: e.type,
    source: e.source,
    subject_id: e.subjectId,
    occurred_at: iso(e.occurredAt, 'event occurred_at'),
    actor: orNull(e.actor),
    data: dataOf(e.dataJson, 'operator event data_json'),
    trace_id: orNull(e.traceId),
    contract_id: orNull(e.contractId),
    listing_id: orNull(e.listingId),
    seq: e.seq,
    recorded_at: iso(e.recordedAt, 'event recorded_at'),
  };
}

function windowToJson(w: telemetryV1.RollupWindow | undefined) {
  const v = required(w, 'rollup window');
  const window = ROLLUP_WINDOWS.find((w) => w === v.window);
  if (window === undefined) throw new TelemetryContractError('rollup window');
  return { window, from: isoOrNull(v.from), as_of: iso(v.asOf, 'rollup as_of') };
}

/** Every int64 field named in `keys`, as integers (`what` names the message in a contract error). */
function ints<K extends string>(source: Record<K, string>, keys: readonly K[], what: string): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, int(source[k], `${what} ${k}`)])) as Record<K, number>;
}

export function weeklyReportToJson(res: telemetryV1.GetWeeklyReportResponse): WeeklyReportJson {
  const r = required(res.report, 'weekly report');
  const c = required(r.contracts, 'weekly report contracts');
  const s = required(r.matchingSignals, 'weekly report matching_signals');
  return {
    week_start: r.weekStart,
    week_end: r.weekEnd,
    include_sandbox: r.includeSandbox,
    contracts: ints(c, ['created', 'awarded', 'delivered', 'settled', 'disputed', 'refunded', 'split', 'cancelled', 'expired'], 'weekly contracts'),
    settled_volume: volume(r.settledVolume),
    median_time_to_settle_ms: intOrNull(r.medianTimeToSettleMs, 'median_time_to_settle_ms'),
    agents_registered: int(r.agentsRegistered, 'agents_registered'),
    active_buyers: int(r.activeBuyers, 'active_buyers'),
    active_sellers: int(r.activeSellers, 'active_sellers'),
    checkouts_created: int(r.checkoutsCreated, 'checkouts_created'),
    purchases: int(r.purchases, 'purchases'),
    purchase_volume: volume(r.purchaseVolume),
    workflow_runs_started: int(r.workflowRunsStarted, 'workflow_runs_started'),
    workflow_runs_completed: int(r.workflowRunsCompleted, 'workflow_runs_completed'),
    workflow_runs_failed: int(r.workflowRunsFailed, 'workflow_runs_failed'),
    top_tags: r.topTags.map((t) => ({ tag: t.tag, count: int(t.count, 'top tag count') })),
    matching_signals: ints(s, ['impressions', 'clicks', 'shortlists', 'awards'], 'matching signals'),
    events_recorded: int(r.eventsRecorded, 'events_recorded'),
  };
}

export function integrityRollupToJson(res: telemetryV1.GetMarketIntegrityRollupResponse) {
  const r = required(res.rollup, 'market integrity rollup');
  return {
    window: windowToJson(r.window),
    state: r.state,
    state_changes: int(r.stateChanges, 'state_changes'),
    kill_switches_set: int(r.killSwitchesSet, 'kill_switches_set'),
    erroneous_clears: int(r.erroneousClears, 'erroneous_clears'),
    disputes_opened: int(r.disputesOpened, 'disputes_opened'),
    disputes_resolved: int(r.disputesResolved, 'disputes_resolved'),
    refunds: int(r.refunds, 'refunds'),
    splits: int(r.splits, 'splits'),
    buyer_alias_updates: int(r.buyerAliasUpdates, 'buyer_alias_updates'),
    resale_reviews_decided: int(r.resaleReviewsDecided, 'resale_reviews_decided'),
    agents_frozen: int(r.agentsFrozen, 'agents_frozen'),
    agents_unfrozen: int(r.agentsUnfrozen, 'agents_unfrozen'),
    dispute_rate: rate(r.disputeRate),
  };
}

export function bytesToAtomsRollupToJson(res: telemetryV1.GetBytesToAtomsRollupResponse) {
  const r = required(res.rollup, 'bytes-to-atoms rollup');
  return {
    window: windowToJson(r.window),
    purchases: int(r.purchases, 'purchases'),
    volume: volume(r.volume),
    from_contracts: int(r.fromContracts, 'from_contracts'),
    from_contracts_volume: volume(r.fromContractsVolume),
    from_workflows: int(r.fromWorkflows, 'from_workflows'),
    from_workflows_volume: volume(r.fromWorkflowsVolume),
    originated_share: rate(r.originatedShare),
    merchants: r.merchants.map((m) => ({ merchant_domain: m.merchantDomain, purchases: int(m.purchases, 'merchant purchases'), volume: volume(m.volume) })),
  };
}

export function coordinationRollupToJson(res: telemetryV1.GetCoordinationRollupResponse) {
  const r = required(res.rollup, 'coordination rollup');
  return {
    window: windowToJson(r.window),
    threads_created: int(r.threadsCreated, 'threads_created'),
    posts_created: int(r.postsCreated, 'posts_created'),
    contracts_with_threads: int(r.contractsWithThreads, 'contracts_with_threads'),
    participants: int(r.participants, 'participants'),
    workflow_runs_started: int(r.workflowRunsStarted, 'workflow_runs_started'),
    workflow_runs_completed: int(r.workflowRunsCompleted, 'workflow_runs_completed'),
    workflow_runs_failed: int(r.workflowRunsFailed, 'workflow_runs_failed'),
    workflow_stages_completed: int(r.workflowStagesCompleted, 'workflow_stages_completed'),
    workflow_tasks_posted: int(r.workflowTasksPosted, 'workflow_tasks_posted'),
    workflow_tasks_settled: int(r.workflowTasksSettled, 'workflow_tasks_settled'),
    workflow_tasks_retried: int(r.workflowTasksRetried, 'workflow_tasks_retried'),
    median_run_duration_ms: intOrNull(r.medianRunDurationMs, 'median_run_duration_ms'),
  };
}

export function outcomesToJson(res: telemetryV1.GetOutcomeMetricsResponse): OutcomeMetricsJson {
  const m = required(res.metrics, 'outcome metrics');
  const k = required(m.commerce, 'commerce outcomes');
  const c = m.contracts;
  return {
    window: windowToJson(m.window),
    merchant_id: orNull(m.merchantId),
    agent_id: orNull(m.agentId),
    contracts: c
      ? {
          ...ints(c, ['terminal', 'settled', 'refunded', 'split', 'cancelled', 'expired', 'disputed'], 'contract outcomes'),
          success_rate: rate(c.successRate),
          refund_rate: rate(c.refundRate),
          dispute_rate: rate(c.disputeRate),
          median_time_to_settle_ms: intOrNull(c.medianTimeToSettleMs, 'median_time_to_settle_ms'),
          p90_time_to_settle_ms: intOrNull(c.p90TimeToSettleMs, 'p90_time_to_settle_ms'),
        }
      : null,
    commerce: {
      ...ints(k, ['ended', 'completed', 'canceled', 'failed'], 'commerce outcomes'),
      success_rate: rate(k.successRate),
      median_time_to_complete_ms: intOrNull(k.medianTimeToCompleteMs, 'median_time_to_complete_ms'),
      volume: volume(k.volume),
    },
  };
}
