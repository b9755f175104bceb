import { type Static, Type } from 'typebox';
import { MoneyOut } from '../../lib/market/market-kit';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { EXCHANGE_PUB, SIG, SUBJECT, T } from '../metering/metering.schemas';
import { Docket } from '../registry/attestations.schemas';
import { Currency, IdempotencyKey } from '../wallets/wallets.schemas';

// REST shapes of the gateway proxy (spec "Gateway", DESIGN §4): a call an agent made through an
// upstream, recorded against a budget (an active hold of the agent, or a commerce mandate for it),
// the run's casefile and the usage metrics.

export const METRICS_WINDOWS = ['all', '1h', '1d', '7d', '30d'] as const;
export const BUDGET_KINDS = ['hold', 'mandate'] as const;

const HLD = 'hld_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const PXC = 'pxc_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const RUN = 'run-2026-11-21-a';
const SHA_REQ = 'a3f1c2d4e5b6a7980f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778';
const SHA_RES = '0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778a3f1c2d4e5b6a798';

const Id = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description, examples: [example] });
export const RunId = Id('Your id of the run the call belongs to (`^[A-Za-z0-9_.:-]{1,128}$`); a casefile is exported per run', RUN);
export const Upstream = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._:/-]{0,252}$',
  description: 'The upstream called, e.g. a host name (`^[A-Za-z0-9][A-Za-z0-9._:/-]{0,252}$`)',
  examples: ['api.example-llm.com'],
});
const Operation = Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x20-\\x7E]+$', description: 'What was called (1–200 printable ASCII)', examples: ['POST /v1/completions'] });
const Sha256Hex = (description: string, example: string) => Type.String({ pattern: '^[0-9a-f]{64}$', description, examples: [example] });
const Cost = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'Decimal string with at most 6 fraction digits (what the call cost, in the budget’s currency); else 400 `invalid_amount`',
  examples: ['0.25'],
});

export const RecordProxyCallBody = Type.Object(
  {
    agent_id: { ...AgentId, description: 'The agent that made the call; an agent-signed request must be that agent (403 `acting_agent_mismatch`)' },
    run_id: RunId,
    upstream: Upstream,
    operation: Operation,
    cost: Cost,
    currency: Type.Optional({ ...Currency, description: 'Default the budget’s currency; another → 400 `budget_currency_mismatch`' }),
    request_sha256: Sha256Hex('Lowercase hex sha256 of the request body sent upstream', SHA_REQ),
    response_sha256: Sha256Hex('Lowercase hex sha256 of the response body', SHA_RES),
    status: Type.Integer({ minimum: 100, maximum: 599, description: 'The upstream’s HTTP status', examples: [200] }),
    latency_ms: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Upstream latency in milliseconds', examples: [412] }),
    hold_id: Type.Optional(Id('Budget: an active hold of the agent made through the wallet routes (exactly one of hold_id and mandate_id)', HLD)),
    mandate_id: Type.Optional(Id('Budget: an active commerce mandate for the agent (exactly one of hold_id and mandate_id)', 'mdt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e')),
    idempotency_key: Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        agent_id: SUBJECT,
        run_id: RUN,
        upstream: 'api.example-llm.com',
        operation: 'POST /v1/completions',
        cost: '0.25',
        request_sha256: SHA_REQ,
        response_sha256: SHA_RES,
        status: 200,
        latency_ms: 412,
        hold_id: HLD,
        idempotency_key: 'call-0001',
      },
    ],
  },
);
export type RecordProxyCallBodyJson = Static<typeof RecordProxyCallBody>;

const budgetExample = { kind: 'hold', ref: HLD, currency: 'CREDIT', limit: '10', spent: '0.25', remaining: '9.75', calls: 1 };
export const ProxyBudget = Type.Object(
  {
    kind: StringEnum(BUDGET_KINDS),
    ref: Type.String({ description: 'The hold_id or mandate_id' }),
    currency: Type.String(),
    limit: Type.String({ description: 'What the budget allows in all (decimal string)' }),
    spent: Type.String({ description: 'What the recorded calls spent' }),
    remaining: Type.String({ description: 'limit − spent' }),
    calls: Type.Integer({ minimum: 0, description: 'Calls recorded against it' }),
  },
  { additionalProperties: false, description: 'A proxy budget after the call', examples: [budgetExample] },
);

const callExample = {
  call_id: PXC,
  agent_id: SUBJECT,
  run_id: RUN,
  upstream: 'api.example-llm.com',
  operation: 'POST /v1/completions',
  cost: '0.25',
  currency: 'CREDIT',
  request_sha256: SHA_REQ,
  response_sha256: SHA_RES,
  status: 200,
  latency_ms: 412,
  budget_kind: 'hold',
  budget_ref: HLD,
  idempotency_key: 'call-0001',
  recorded_at: T,
  created_at: T,
  budget: budgetExample,
};

export const ProxyCall = Type.Object(
  {
    call_id: Type.String({ description: '`pxc_…`' }),
    agent_id: Type.String(),
    run_id: Type.String(),
    upstream: Type.String(),
    operation: Type.String(),
    cost: Type.String(),
    currency: Type.String(),
    request_sha256: Type.String(),
    response_sha256: Type.String(),
    status: Type.Integer(),
    latency_ms: Type.Integer({ minimum: 0 }),
    budget_kind: StringEnum(BUDGET_KINDS),
    budget_ref: Type.String(),
    idempotency_key: Nullable(Type.String()),
    recorded_at: Timestamp,
    created_at: { ...Timestamp, description: 'Same as `recorded_at`' },
    budget: ProxyBudget,
  },
  { additionalProperties: false, description: 'A proxy call recorded against its budget, and the budget after it', examples: [callExample] },
);
export type ProxyCallJson = Static<typeof ProxyCall>;

export const ExportProxyCasefileBody = Type.Object(
  { agent_id: { ...AgentId, description: 'The agent whose run it is; an agent-signed request must be that agent' }, run_id: RunId },
  { additionalProperties: false, examples: [{ agent_id: SUBJECT, run_id: RUN }] },
);

const docketExample = {
  docket_id: 'dkt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  subject: { agent_id: SUBJECT, run_id: RUN },
  entries: [{ kind: 'proxy_call', ref: PXC, sha256: SHA_REQ, content: { call_id: PXC, upstream: 'api.example-llm.com', cost: '0.25' } }],
  created_at: T,
  exchange_pubkey: EXCHANGE_PUB,
  signature: SIG,
};
export type ProxyCasefileJson = Static<typeof Docket>;
export const ProxyCasefile = { ...Docket, description: 'The run’s casefile docket: one `proxy_call` entry per call in recorded order, signed by the exchange key', examples: [docketExample] };

export const MetricsQuery = Type.Object(
  {
    window: Type.Optional(StringEnum(METRICS_WINDOWS, { default: 'all', description: 'How far back from `as_of`: all (default), 1h, 1d, 7d, 30d' })),
    as_of: Type.Optional({ ...Timestamp, description: 'End of the window (default now)' }),
    agent_id: Type.Optional({ ...AgentId, description: 'Only this agent’s calls' }),
    upstream: Type.Optional({ ...Upstream, description: 'Only calls to this upstream' }),
  },
  { additionalProperties: false },
);
export type MetricsQueryJson = Static<typeof MetricsQuery>;

const Millis = Type.Integer({ minimum: 0 });
const rowExample = { agent_id: SUBJECT, upstream: 'api.example-llm.com', calls: 10, errors: 1, spend: [{ amount: '2.5', currency: 'CREDIT' }], latency_ms: { p50: 400, p90: 520, p99: 610, max: 612 } };
export const ProxyMetricsRow = Type.Object(
  {
    agent_id: Type.String(),
    upstream: Type.String(),
    calls: Type.Integer({ minimum: 0 }),
    errors: Type.Integer({ minimum: 0, description: 'Calls whose upstream status was ≥ 400' }),
    spend: Type.Array(MoneyOut, { description: 'Σ cost per currency' }),
    latency_ms: Type.Object({ p50: Millis, p90: Millis, p99: Millis, max: Millis }, { additionalProperties: false, description: 'Latency percentiles (nearest rank)' }),
  },
  { additionalProperties: false, description: 'The calls of one (agent, upstream) in the window', examples: [rowExample] },
);
export const ProxyMetrics = Type.Object(
  {
    window: StringEnum(METRICS_WINDOWS),
    as_of: Timestamp,
    data: Type.Array(ProxyMetricsRow, { description: 'Sorted by (agent_id, upstream)' }),
  },
  { additionalProperties: false, description: 'Gateway proxy usage per (agent, upstream)', examples: [{ window: 'all', as_of: T, data: [rowExample] }] },
);
export type ProxyMetricsJson = Static<typeof ProxyMetrics>;
