import { Type, type Static } from 'typebox';
import { MoneyOut, T } from '../../lib/market/market-kit';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';

// REST shapes of telemetry's weekly report, rollups and outcome metrics (DESIGN §4 Telemetry).
// Counts are integers, amounts `{amount, currency}` per currency, rates numbers 0–1 or null when
// nothing was there to divide by, durations integer milliseconds or null.

export const ROLLUP_WINDOWS = ['all', '1h', '1d', '7d', '30d'] as const;
const T_FROM = '2026-11-14T18:00:00.000Z';

const Count = (description?: string) => Type.Integer({ minimum: 0, ...(description ? { description } : {}) });
const Rate = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1 }), { description });
const Millis = (description: string) => Nullable(Type.Integer({ minimum: 0 }), { description });
const Volume = (description: string) => Type.Array(MoneyOut, { description });

const AsOf = { ...Timestamp, description: 'End of the window (RFC 3339; default now; not in the future)' };
const Window = StringEnum(ROLLUP_WINDOWS, { default: '7d', description: 'How far back from `as_of`: all, 1h, 1d, 7d (default), 30d' });

export const RollupQuery = Type.Object({ window: Type.Optional(Window), as_of: Type.Optional(AsOf) }, { additionalProperties: false });
export type RollupQueryJson = Static<typeof RollupQuery>;

export const WeeklyReportQuery = Type.Object(
  {
    week_start: Type.Optional(
      Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'The Monday (UTC, `YYYY-MM-DD`) the week starts; default the last complete week (not a Monday, or a week not started: 400 `invalid_week_start`)', examples: ['2026-11-16'] }),
    ),
    include_sandbox: Type.Optional(Type.Boolean({ default: false, description: 'Count sandbox contracts and purchases too' })),
  },
  { additionalProperties: false },
);

export const OutcomesQuery = Type.Object(
  {
    window: Type.Optional(Window),
    as_of: Type.Optional(AsOf),
    merchant_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.-]+(:[0-9]{1,5})?$', description: 'Commerce only: purchases at this merchant domain (no contract figures then)', examples: ['sandbox-merchant.local'] }),
    ),
    agent_id: Type.Optional({ ...AgentId, description: 'Contracts where the agent is buyer or seller, and the agent’s checkouts' }),
  },
  { additionalProperties: false },
);

const windowExample = { window: '7d', from: T_FROM, as_of: T };
const RollupWindow = Type.Object(
  { window: StringEnum(ROLLUP_WINDOWS), from: Nullable(Timestamp, { description: 'Start of the window; null for `all`' }), as_of: Timestamp },
  { additionalProperties: false },
);

// ---- Weekly report ----

const counts = { created: 4, awarded: 3, delivered: 3, settled: 2, disputed: 1, refunded: 0, split: 0, cancelled: 1, expired: 0 };
const weeklyExample = {
  week_start: '2026-11-16',
  week_end: '2026-11-23',
  include_sandbox: true,
  contracts: counts,
  settled_volume: [{ amount: '90', currency: 'CREDIT' }],
  median_time_to_settle_ms: 5_400_000,
  agents_registered: 6,
  active_buyers: 2,
  active_sellers: 2,
  checkouts_created: 1,
  purchases: 1,
  purchase_volume: [{ amount: '19.99', currency: 'USD' }],
  workflow_runs_started: 1,
  workflow_runs_completed: 1,
  workflow_runs_failed: 0,
  top_tags: [{ tag: 'translation', count: 3 }],
  matching_signals: { impressions: 12, clicks: 4, shortlists: 2, awards: 1 },
  events_recorded: 87,
};
export const WeeklyReport = Type.Object(
  {
    week_start: Type.String({ description: 'Monday, `YYYY-MM-DD` (UTC)' }),
    week_end: Type.String({ description: 'The next Monday (exclusive)' }),
    include_sandbox: Type.Boolean(),
    contracts: Type.Object(
      {
        created: Count(),
        awarded: Count(),
        delivered: Count(),
        settled: Count(),
        disputed: Count(),
        refunded: Count(),
        split: Count(),
        cancelled: Count(),
        expired: Count(),
      },
      { additionalProperties: false, description: 'Contract transitions that happened this week' },
    ),
    settled_volume: Volume('Settled prices, per currency'),
    median_time_to_settle_ms: Millis('Median created → settled of the contracts settled this week; null when none'),
    agents_registered: Count(),
    active_buyers: Count('Distinct buyers that created a contract this week'),
    active_sellers: Count('Distinct sellers awarded a contract this week'),
    checkouts_created: Count(),
    purchases: Count(),
    purchase_volume: Volume('Purchase totals, per currency'),
    workflow_runs_started: Count(),
    workflow_runs_completed: Count(),
    workflow_runs_failed: Count(),
    top_tags: Type.Array(Type.Object({ tag: Type.String(), count: Count() }, { additionalProperties: false }), { description: 'The 10 tags with the most contracts created this week' }),
    matching_signals: Type.Object({ impressions: Count(), clicks: Count(), shortlists: Count(), awards: Count() }, { additionalProperties: false }),
    events_recorded: Count(),
  },
  { additionalProperties: false, description: 'One UTC week of the exchange (Monday to Monday)', examples: [weeklyExample] },
);
export type WeeklyReportJson = Static<typeof WeeklyReport>;

// ---- Rollups ----

const integrityExample = {
  window: windowExample,
  state: 'normal',
  state_changes: 2,
  kill_switches_set: 1,
  erroneous_clears: 0,
  disputes_opened: 1,
  disputes_resolved: 1,
  refunds: 0,
  splits: 1,
  buyer_alias_updates: 0,
  resale_reviews_decided: 0,
  agents_frozen: 0,
  agents_unfrozen: 0,
  dispute_rate: 0.25,
};
export const MarketIntegrityRollup = Type.Object(
  {
    window: RollupWindow,
    state: Type.String({ description: 'The integrity state after the last change recorded by `as_of` (`normal` when none)' }),
    state_changes: Count(),
    kill_switches_set: Count(),
    erroneous_clears: Count(),
    disputes_opened: Count(),
    disputes_resolved: Count(),
    refunds: Count(),
    splits: Count(),
    buyer_alias_updates: Count(),
    resale_reviews_decided: Count(),
    agents_frozen: Count(),
    agents_unfrozen: Count(),
    dispute_rate: Rate('Of the contracts awarded in the window, the share with a dispute opened by `as_of`; null when none were awarded'),
  },
  { additionalProperties: false, description: 'Market integrity in a window: state changes, kill switches, corrections, disputes, freezes', examples: [integrityExample] },
);

const usd = (amount: string) => [{ amount, currency: 'USD' }];
const b2aExample = {
  window: windowExample,
  purchases: 4,
  volume: usd('80'),
  from_contracts: 2,
  from_contracts_volume: usd('40'),
  from_workflows: 1,
  from_workflows_volume: usd('20'),
  originated_share: 0.75,
  merchants: [{ merchant_domain: 'sandbox-merchant.local', purchases: 3, volume: usd('60') }],
};
export const BytesToAtomsRollup = Type.Object(
  {
    window: RollupWindow,
    purchases: Count('Every commerce purchase in the window'),
    volume: Volume('Per currency'),
    from_contracts: Count('Purchases whose checkout originates from a contract'),
    from_contracts_volume: Volume('Per currency'),
    from_workflows: Count('Purchases whose checkout originates from a workflow run'),
    from_workflows_volume: Volume('Per currency'),
    originated_share: Rate('(from_contracts + from_workflows) / purchases; null without purchases'),
    merchants: Type.Array(
      Type.Object({ merchant_domain: Type.String(), purchases: Count(), volume: Volume('Per currency') }, { additionalProperties: false }),
      { description: 'Originated purchases per merchant, most first' },
    ),
  },
  { additionalProperties: false, description: 'Commerce purchases that originate from contracts or workflow runs', examples: [b2aExample] },
);

const coordinationExample = {
  window: windowExample,
  threads_created: 3,
  posts_created: 11,
  contracts_with_threads: 2,
  participants: 4,
  workflow_runs_started: 1,
  workflow_runs_completed: 1,
  workflow_runs_failed: 0,
  workflow_stages_completed: 2,
  workflow_tasks_posted: 3,
  workflow_tasks_settled: 3,
  workflow_tasks_retried: 0,
  median_run_duration_ms: 7_200_000,
};
export const CoordinationRollup = Type.Object(
  {
    window: RollupWindow,
    threads_created: Count(),
    posts_created: Count(),
    contracts_with_threads: Count('Distinct contracts with a thread created in the window'),
    participants: Count('Distinct post authors'),
    workflow_runs_started: Count(),
    workflow_runs_completed: Count(),
    workflow_runs_failed: Count(),
    workflow_stages_completed: Count(),
    workflow_tasks_posted: Count(),
    workflow_tasks_settled: Count(),
    workflow_tasks_retried: Count(),
    median_run_duration_ms: Millis('Median started → completed of the runs completed in the window; null when none'),
  },
  { additionalProperties: false, description: 'Coordination threads and workflow runs in a window', examples: [coordinationExample] },
);

// ---- Outcome metrics ----

const outcomesExample = {
  window: windowExample,
  merchant_id: null,
  agent_id: null,
  contracts: {
    terminal: 4,
    settled: 3,
    refunded: 0,
    split: 0,
    cancelled: 1,
    expired: 0,
    disputed: 1,
    success_rate: 0.75,
    refund_rate: 0,
    dispute_rate: 0.25,
    median_time_to_settle_ms: 5_400_000,
    p90_time_to_settle_ms: 9_000_000,
  },
  commerce: { ended: 2, completed: 2, canceled: 0, failed: 0, success_rate: 1, median_time_to_complete_ms: 4_000, volume: usd('39.98') },
};
export const OutcomeMetrics = Type.Object(
  {
    window: RollupWindow,
    merchant_id: Nullable(Type.String()),
    agent_id: Nullable(Type.String()),
    contracts: Nullable(
      Type.Object(
        {
          terminal: Count('Contracts that reached settled, refunded, split, cancelled or expired in the window'),
          settled: Count(),
          refunded: Count(),
          split: Count(),
          cancelled: Count(),
          expired: Count(),
          disputed: Count('Of the terminal ones, how many were ever disputed'),
          success_rate: Rate('settled / terminal; null when terminal is 0'),
          refund_rate: Rate('refunded / terminal'),
          dispute_rate: Rate('disputed / terminal'),
          median_time_to_settle_ms: Millis('created → settled of the settled ones'),
          p90_time_to_settle_ms: Millis('90th percentile of the same'),
        },
        { additionalProperties: false },
      ),
      { description: 'null with `merchant_id` (a merchant has no contracts)' },
    ),
    commerce: Type.Object(
      {
        ended: Count('Checkouts that ended in the window: completed, canceled or failed'),
        completed: Count(),
        canceled: Count(),
        failed: Count(),
        success_rate: Rate('completed / ended; null when none ended'),
        median_time_to_complete_ms: Millis('created → completed of the completed ones'),
        volume: Volume('Completed totals, per currency'),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: 'Success, time to settle, dispute and refund rates in a window', examples: [outcomesExample] },
);
export type OutcomeMetricsJson = Static<typeof OutcomeMetrics>;
