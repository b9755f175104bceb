import { marketV1InsightsWire } from '@exchange/proto';
import { Type, type Static } from 'typebox';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';

// REST shapes of the market insights (issue 6 §1, §2, §7): reputation, verifier reputation,
// recommendations, the price index and the task tape. Every figure is "as of" a time.

export const PRICE_INDEX_WINDOWS = marketV1InsightsWire.insightWindow.names;
// The task tape offers the insight windows but `30d` (its mapper refuses an answer in 30d).
export const TASK_TAPE_WINDOWS = ['all', '1h', '1d', '7d'] as const;
export type InsightWindowName = (typeof PRICE_INDEX_WINDOWS)[number];

const T = '2026-11-21T18:00:00.000Z';
const AGENT = 'acme:agent:seller-1';
const CTR = 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';

const MoneyOut = Type.Object({ amount: Type.String({ description: 'Decimal string' }), currency: Type.String() }, { additionalProperties: false });

const WindowDays = Type.Integer({ minimum: 1, maximum: 3650, default: 90, description: 'Days before `as_of` that count (1–3650, default 90)' });
const AsOf = { ...Timestamp, description: 'RFC 3339; only facts that had happened by then count (default now; not in the future)' };

export const AgentParams = Type.Object({ agent_id: AgentId }, { additionalProperties: false });
export const VerifierParams = Type.Object({ verifier_id: AgentId }, { additionalProperties: false });
export const SellerParams = Type.Object({ seller_id: AgentId }, { additionalProperties: false });

export const ReputationQuery = Type.Object(
  {
    window_days: Type.Optional(WindowDays),
    as_of: Type.Optional(AsOf),
    include_receipts: Type.Optional(Type.Boolean({ default: false, description: 'Also list the settlement receipts counted' })),
  },
  { additionalProperties: false },
);
export const VerifierReputationQuery = Type.Object(
  { window_days: Type.Optional(WindowDays), as_of: Type.Optional(AsOf) },
  { additionalProperties: false },
);

const reputationExample = {
  agent_id: AGENT,
  score: 0.74,
  confidence: 0.62,
  window_days: 90,
  as_of: T,
  components: {
    settled_as_seller: 5,
    settled_as_buyer: 1,
    verifications_passed: 5,
    verifications_failed: 1,
    disputes_won: 1,
    disputes_lost: 0,
    disputes_split: 0,
    evidence_weight: 6.3,
  },
  volume: [{ amount: '450', currency: 'CREDIT' }],
  formula: 'rep-v1',
};
export const Reputation = Type.Object(
  {
    agent_id: Type.String(),
    score: Type.Number({ description: '0–1, Bayesian average of the decayed observations with the prior (market README)' }),
    confidence: Type.Number({ description: '0–1, evidence_weight / (evidence_weight + prior weight)' }),
    window_days: Type.Integer(),
    as_of: Timestamp,
    components: Type.Object(
      {
        settled_as_seller: Type.Integer(),
        settled_as_buyer: Type.Integer(),
        verifications_passed: Type.Integer(),
        verifications_failed: Type.Integer(),
        disputes_won: Type.Integer(),
        disputes_lost: Type.Integer(),
        disputes_split: Type.Integer(),
        evidence_weight: Type.Number(),
      },
      { additionalProperties: false },
    ),
    volume: Type.Array(MoneyOut, { description: 'Settled volume as seller in the window, per currency' }),
    receipt_ids: Type.Optional(Type.Array(Type.String(), { description: 'Only with include_receipts=true: the settlement receipts counted, oldest first' })),
    formula: Type.String({ description: 'Formula version' }),
  },
  { additionalProperties: false, description: 'An agent’s reputation as of a time', examples: [reputationExample] },
);
export type ReputationJson = Static<typeof Reputation>;

export const VerifierReputation = Type.Object(
  {
    verifier_id: Type.String(),
    score: Type.Number(),
    confidence: Type.Number(),
    window_days: Type.Integer(),
    as_of: Timestamp,
    reports: Type.Integer({ description: 'Reports signed in the window' }),
    passed: Type.Integer(),
    failed: Type.Integer(),
    disputed: Type.Integer({ description: 'Reports whose contract had a resolved dispute by as_of' }),
    agreements: Type.Number({ description: 'How many of them agreed with the dispute outcome (a split counts half)' }),
    agreement_rate: Nullable(Type.Number(), { description: 'agreements / disputed; null when nothing was disputed' }),
    median_latency_ms: Nullable(Type.Integer(), { description: 'Median time from result to report; null without reports' }),
    formula: Type.String(),
  },
  {
    additionalProperties: false,
    description: 'A verifier’s reputation: agreement with later dispute outcomes, volume, latency',
    examples: [
      {
        verifier_id: 'acme:agent:verifier-1',
        score: 0.81,
        confidence: 0.4,
        window_days: 90,
        as_of: T,
        reports: 12,
        passed: 10,
        failed: 2,
        disputed: 2,
        agreements: 1.5,
        agreement_rate: 0.75,
        median_latency_ms: 5400,
        formula: 'vrep-v1',
      },
    ],
  },
);
export type VerifierReputationJson = Static<typeof VerifierReputation>;

export const RecommendationQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: '1–50 (default 10)' })),
    exploration_rate: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, default: 0.1, description: 'Share of slots (rounded) given to low-history candidates, 0–1 (default 0.1)' }),
    ),
    request_id: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$',
        description: 'Seeds exploration: the same request_id over the same data gives the same answer (default: the request id, i.e. X-Request-Id when sent)',
      }),
    ),
  },
  { additionalProperties: false },
);

const Signals = Type.Object(
  {
    tag_match: Type.Number(),
    reputation: Type.Number(),
    price_fit: Type.Number(),
    recency: Type.Number(),
    matching: Nullable(Type.Number(), { description: 'Telemetry matching signals when available, else null' }),
  },
  { additionalProperties: false, description: 'Each signal 0–1 before its weight' },
);
const signalsExample = { tag_match: 1, reputation: 0.74, price_fit: 0.9, recency: 0.5, matching: null };

export const SellerRecommendations = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          seller_id: Type.String(),
          score: Type.Number(),
          rank: Type.Integer(),
          exploration: Type.Boolean({ description: 'The slot went to a low-history candidate by exploration' }),
          signals: Signals,
          listing_id: Nullable(Type.String(), { description: 'The seller’s best-matching listing' }),
        },
        { additionalProperties: false },
      ),
    ),
    exploration_slots: Type.Integer(),
    request_id: Type.String(),
  },
  {
    additionalProperties: false,
    description: 'Sellers for a contract, best first (never the buyer or the contract’s verifier)',
    examples: [
      {
        data: [{ seller_id: AGENT, score: 0.82, rank: 1, exploration: false, signals: signalsExample, listing_id: 'lst_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e' }],
        exploration_slots: 0,
        request_id: 'req_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
      },
    ],
  },
);
export type SellerRecommendationsJson = Static<typeof SellerRecommendations>;

export const ContractRecommendations = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        { contract_id: Type.String(), score: Type.Number(), rank: Type.Integer(), exploration: Type.Boolean(), signals: Signals },
        { additionalProperties: false },
      ),
    ),
    exploration_slots: Type.Integer(),
    request_id: Type.String(),
  },
  {
    additionalProperties: false,
    description: 'Open contracts for a seller, best first (never its own, nor those it verifies)',
    examples: [
      {
        data: [{ contract_id: CTR, score: 0.77, rank: 1, exploration: false, signals: signalsExample }],
        exploration_slots: 0,
        request_id: 'req_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
      },
    ],
  },
);
export type ContractRecommendationsJson = Static<typeof ContractRecommendations>;

export const PriceIndexQuery = Type.Object(
  {
    window: Type.Optional(StringEnum(PRICE_INDEX_WINDOWS, { default: 'all', description: 'Settlement time window before as_of (default all)' })),
    as_of: Type.Optional(AsOf),
    include_sandbox: Type.Optional(
      Type.Boolean({ description: 'Count sandbox contracts; default true on a sandbox exchange, false on mainnet (as the task tape)' }),
    ),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 64, examples: ['nlp'] })),
  },
  { additionalProperties: false },
);
export const PriceIndex = Type.Object(
  {
    window: StringEnum(PRICE_INDEX_WINDOWS),
    as_of: Timestamp,
    include_sandbox: Type.Boolean(),
    data: Type.Array(
      Type.Object(
        {
          tag: Type.String(),
          currency: Type.String(),
          count: Type.Integer(),
          median: Type.String(),
          p25: Type.String(),
          p75: Type.String(),
          min: Type.String(),
          max: Type.String(),
        },
        { additionalProperties: false },
      ),
      { description: 'Clearing prices (awarded price of contracts settled in the window) per tag and currency, sorted by tag then currency' },
    ),
  },
  {
    additionalProperties: false,
    description: 'The price index: clearing-price statistics per tag and currency',
    examples: [
      {
        window: '7d',
        as_of: T,
        include_sandbox: false,
        data: [{ tag: 'nlp', currency: 'CREDIT', count: 4, median: '87.5', p25: '80', p75: '95', min: '75', max: '100' }],
      },
    ],
  },
);
export type PriceIndexJson = Static<typeof PriceIndex>;

export const TaskTapeQuery = Type.Object(
  {
    window: Type.Optional(StringEnum(TASK_TAPE_WINDOWS, { default: 'all', description: 'Default all' })),
    as_of: Type.Optional(AsOf),
    include_sandbox: Type.Optional(
      Type.Boolean({ description: 'Count sandbox contracts; default true on a sandbox exchange, false on mainnet (as the price index)' }),
    ),
  },
  { additionalProperties: false },
);
const TapeFigure = Type.Object(
  { count: Type.Integer(), volume: Type.Array(MoneyOut, { description: 'Per currency' }) },
  { additionalProperties: false },
);
export const TaskTape = Type.Object(
  {
    window: StringEnum(TASK_TAPE_WINDOWS),
    as_of: Timestamp,
    include_sandbox: Type.Boolean(),
    opened: { ...TapeFigure, description: 'Contracts opened in the window; volume = budgets' },
    awarded: { ...TapeFigure, description: 'Contracts awarded; volume = awarded prices' },
    settled: { ...TapeFigure, description: 'Contracts settled; volume = settled prices' },
  },
  {
    additionalProperties: false,
    description: 'The task tape: contracts opened, awarded and settled in the window',
    examples: [
      {
        window: '1d',
        as_of: T,
        include_sandbox: true,
        opened: { count: 12, volume: [{ amount: '1200', currency: 'CREDIT' }] },
        awarded: { count: 7, volume: [{ amount: '610', currency: 'CREDIT' }] },
        settled: { count: 4, volume: [{ amount: '350', currency: 'CREDIT' }] },
      },
    ],
  },
);
export type TaskTapeJson = Static<typeof TaskTape>;
