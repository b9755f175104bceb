import { telemetryV1Wire } from '@exchange/proto';
import { Type, type Static } from 'typebox';
import { BUYER, ContractId, CTR, LST, ListingId, PageFields, SELLER, T } from '../../lib/market/market-kit';
import { AgentId, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';

// REST shapes of telemetry's feeds (DESIGN §4 Telemetry): matching signals, categories, public
// and operator events, contract timelines. An event as listed here has the keys of a line of the
// JSONL exports (DESIGN §5 envelope: `id`, `type`, …), so a reader treats both alike.

export const SIGNAL_TYPES = telemetryV1Wire.signalType.names;
export const CATEGORY_KINDS = ['contract', 'listing', 'thread'] as const;

const SIG = 'sig_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const EVT = 'evt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const TAG = 'translation';

const Tag = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9._-]{0,63}$', description: 'A tag (`^[a-z0-9][a-z0-9._-]{0,63}$`)', examples: [TAG] });
const EventType = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '^[a-z0-9_.-]+(\\.\\*)?$',
  description: 'An exact type (`exchange.market.contract.settled`) or a prefix ending in `.*` (`exchange.market.contract.*`)',
  examples: ['exchange.market.contract.*'],
});

// ---- Matching signals ----

export const MatchingSignalBody = Type.Object(
  {
    signal: StringEnum(SIGNAL_TYPES, { description: 'What happened: the seller was shown, clicked, shortlisted or awarded for the contract' }),
    contract_id: ContractId,
    seller_id: { ...AgentId, description: 'The seller shown for the contract' },
    listing_id: Type.Optional({ ...ListingId, description: 'The listing the seller was shown through, if any' }),
    request_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description: 'The recommendation answer (`request_id`) the candidate came from' })),
    occurred_at: Type.Optional({ ...Timestamp, description: 'When it happened (default now); not in the future, not older than 30 days (else 400 `invalid_signal_time`)' }),
  },
  { additionalProperties: false, examples: [{ signal: 'shortlist', contract_id: CTR, seller_id: SELLER, request_id: 'req-42' }] },
);
export type MatchingSignalBodyJson = Static<typeof MatchingSignalBody>;

const signalExample = {
  signal_id: SIG,
  signal: 'shortlist',
  recorded_by: BUYER,
  contract_id: CTR,
  seller_id: SELLER,
  listing_id: null,
  request_id: 'req-42',
  occurred_at: T,
  recorded_at: T,
  duplicate: false,
};

export const MatchingSignal = Type.Object(
  {
    signal_id: Type.String(),
    signal: StringEnum(SIGNAL_TYPES),
    recorded_by: Nullable(Type.String(), { description: 'The agent that recorded it (the operator with X-Agent-Id records as that agent); null for the operator alone' }),
    contract_id: Type.String(),
    seller_id: Type.String(),
    listing_id: Nullable(Type.String()),
    request_id: Nullable(Type.String()),
    occurred_at: Timestamp,
    recorded_at: Timestamp,
    duplicate: Type.Boolean({ description: 'The same signal (recorder, type, contract, seller, request) was recorded before: nothing new (200)' }),
  },
  { additionalProperties: false, description: 'A recorded matching signal', examples: [signalExample] },
);
export type MatchingSignalJson = Static<typeof MatchingSignal>;

// ---- Categories ----

export const CategoryParams = Type.Object({ tag: Tag }, { additionalProperties: false });
export const PageQuery = Type.Object(PageFields, { additionalProperties: false });
export const CategoryObjectsQuery = Type.Object(
  { ...PageFields, kind: Type.Optional(StringEnum(CATEGORY_KINDS, { description: 'Only objects of this kind' })) },
  { additionalProperties: false },
);

const categoryExample = { tag: TAG, object_count: 3, contract_count: 2, listing_count: 1, first_seen_at: T, last_seen_at: T };
export const Category = Type.Object(
  {
    tag: Type.String(),
    object_count: Type.Integer({ minimum: 0, description: 'Contracts, listings and threads with this tag' }),
    contract_count: Type.Integer({ minimum: 0 }),
    listing_count: Type.Integer({ minimum: 0 }),
    first_seen_at: Timestamp,
    last_seen_at: Timestamp,
  },
  { additionalProperties: false, description: 'A tag and how many objects carry it', examples: [categoryExample] },
);
export type CategoryJson = Static<typeof Category>;

export const CategoryPage = Type.Object(
  { data: Type.Array(Category), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Categories in tag order', examples: [{ data: [categoryExample], next_cursor: null }] },
);

const objectExample = { tag: TAG, kind: 'contract', object_id: CTR, title: 'Translate a README to French', sandbox: true, first_seen_at: T };
export const CategoryObject = Type.Object(
  {
    tag: Type.String(),
    kind: StringEnum(CATEGORY_KINDS),
    object_id: Type.String({ description: 'The contract, listing or thread id' }),
    title: Type.String(),
    sandbox: Type.Boolean(),
    first_seen_at: Timestamp,
  },
  { additionalProperties: false, examples: [objectExample] },
);
export type CategoryObjectJson = Static<typeof CategoryObject>;

export const CategoryObjectPage = Type.Object(
  { category: Category, data: Type.Array(CategoryObject), next_cursor: NextCursor },
  { additionalProperties: false, description: 'The tag’s counts and a page of its objects', examples: [{ category: categoryExample, data: [objectExample], next_cursor: null }] },
);

// ---- Events ----

const filterFields = {
  contract_id: Type.Optional({ ...ContractId, description: 'Events of this contract' }),
  listing_id: Type.Optional({ ...ListingId, description: 'Events of this listing' }),
  event_type: Type.Optional(EventType),
  from: Type.Optional({ ...Timestamp, description: 'occurred_at at or after (RFC 3339)' }),
  to: Type.Optional({ ...Timestamp, description: 'occurred_at before (RFC 3339; after `from`)' }),
};
export const EventsQuery = Type.Object({ ...filterFields, ...PageFields }, { additionalProperties: false });
export const EventsExportQuery = Type.Object(filterFields, { additionalProperties: false });
export type EventsExportQueryJson = Static<typeof EventsExportQuery>;

const Data = (description: string) => Type.Object({}, { additionalProperties: true, description });
const Seq = Type.String({ pattern: '^[0-9]+$', description: 'Position in the event store (int64 as a decimal string): the order of the lists' });

const publicExample = {
  id: EVT,
  type: 'exchange.market.contract.settled',
  subject_id: CTR,
  occurred_at: T,
  contract_id: CTR,
  listing_id: null,
  data: { contract_id: CTR, buyer_alias: 'anon:k3vq7m2x9d4a', status: 'SETTLED' },
  seq: '1042',
};
export const PublicEvent = Type.Object(
  {
    id: Type.String({ description: 'The event id' }),
    type: Type.String(),
    subject_id: Type.String(),
    occurred_at: Timestamp,
    contract_id: Nullable(Type.String()),
    listing_id: Nullable(Type.String()),
    data: Data('What a stranger may see: private parties as their current alias, no operator notes, no private amounts'),
    seq: Seq,
  },
  { additionalProperties: false, description: 'An event as the public sees it (no actor)', examples: [publicExample] },
);
export type PublicEventJson = Static<typeof PublicEvent>;

export const OPERATOR_EVENT_EXAMPLE = {
  id: EVT,
  type: 'exchange.market.contract.settled',
  source: 'market',
  subject_id: CTR,
  occurred_at: T,
  actor: BUYER,
  data: { contract_id: CTR, buyer_id: BUYER, status: 'SETTLED' },
  trace_id: 'req-7f3a',
  contract_id: CTR,
  listing_id: LST,
  seq: '1042',
  recorded_at: T,
};
export const OperatorEvent = Type.Object(
  {
    id: Type.String({ description: 'The event id' }),
    type: Type.String(),
    source: Type.String({ description: 'The service that published it' }),
    subject_id: Type.String(),
    occurred_at: Timestamp,
    actor: Nullable(Type.String()),
    data: Data('The payload as published'),
    trace_id: Nullable(Type.String()),
    contract_id: Nullable(Type.String()),
    listing_id: Nullable(Type.String()),
    seq: Seq,
    recorded_at: Timestamp,
  },
  { additionalProperties: false, description: 'A complete event (DESIGN §5 envelope) and where telemetry filed it; one line of the JSONL exports', examples: [OPERATOR_EVENT_EXAMPLE] },
);
export type OperatorEventJson = Static<typeof OperatorEvent>;

export const PublicEventPage = Type.Object(
  { data: Type.Array(PublicEvent), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Public events in store order', examples: [{ data: [publicExample], next_cursor: null }] },
);
export const OperatorEventPage = Type.Object(
  { data: Type.Array(OperatorEvent), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Complete events in store order', examples: [{ data: [OPERATOR_EVENT_EXAMPLE], next_cursor: null }] },
);

export const TimelineParams = Type.Object({ contract_id: ContractId }, { additionalProperties: false });
export const ContractTimeline = Type.Object(
  { contract_id: Type.String(), data: Type.Array(OperatorEvent), next_cursor: NextCursor },
  {
    additionalProperties: false,
    description: 'Every event of the contract and of its offers, results, reports, disputes, receipts, holds and artifacts, in the order they occurred',
    examples: [{ contract_id: CTR, data: [OPERATOR_EVENT_EXAMPLE], next_cursor: null }],
  },
);
