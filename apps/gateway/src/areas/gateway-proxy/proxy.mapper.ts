import type { walletV1Metering } from '@exchange/proto';
import { contractChecks, orNull } from '../../lib/mapper-kit';
import { safeInt } from '../metering/metering.mapper';
import { WalletContractError } from '../wallets/wallet.mapper';
import { BUDGET_KINDS, METRICS_WINDOWS, type MetricsQueryJson, type ProxyCallJson, type ProxyCasefileJson, type ProxyMetricsJson, type RecordProxyCallBodyJson } from './proxy.schemas';

// Gateway proxy proto ⇄ REST (pure): the budget as a oneof, int64 counts as integers, the docket
// (canonical JSON text) as the object it is.

const { required, iso, money, parsedJson } = contractChecks((what) => new WalletContractError(what));

function oneOf<T extends string>(names: readonly T[], value: string, what: string): T {
  if (!(names as readonly string[]).includes(value)) throw new WalletContractError(what);
  return value as T;
}

/** The body as the RPC takes it (the route has checked that exactly one budget is named). */
export function recordCallFromJson(body: RecordProxyCallBodyJson, idempotencyKey: string): walletV1Metering.RecordProxyCallRequest {
  return {
    agentId: body.agent_id,
    runId: body.run_id,
    upstream: body.upstream,
    operation: body.operation,
    cost: body.cost,
    currency: body.currency,
    requestSha256: body.request_sha256,
    responseSha256: body.response_sha256,
    status: body.status,
    latencyMs: body.latency_ms,
    budget: body.hold_id !== undefined ? { $case: 'holdId', value: body.hold_id } : { $case: 'mandateId', value: body.mandate_id ?? '' },
    idempotencyKey: idempotencyKey === '' ? undefined : idempotencyKey,
  };
}

export function proxyCallToJson(res: walletV1Metering.RecordProxyCallResponse): ProxyCallJson {
  const c = required(res.call, 'proxy call');
  const b = required(res.budget, 'proxy budget');
  const recordedAt = iso(c.recordedAt, 'proxy call recorded_at');
  return {
    call_id: c.callId,
    agent_id: c.agentId,
    run_id: c.runId,
    upstream: c.upstream,
    operation: c.operation,
    cost: c.cost,
    currency: c.currency,
    request_sha256: c.requestSha256,
    response_sha256: c.responseSha256,
    status: c.status,
    latency_ms: c.latencyMs,
    budget_kind: oneOf(BUDGET_KINDS, c.budgetKind, 'proxy call budget_kind'),
    budget_ref: c.budgetRef,
    idempotency_key: orNull(c.idempotencyKey),
    recorded_at: recordedAt,
    created_at: recordedAt,
    budget: {
      kind: oneOf(BUDGET_KINDS, b.kind, 'proxy budget kind'),
      ref: b.ref,
      currency: b.currency,
      limit: b.limit,
      spent: b.spent,
      remaining: b.remaining,
      calls: safeInt(b.calls, 'proxy budget calls'),
    },
  };
}

/** The docket object; its canonical text is what the exchange signed, so it is parsed, never rebuilt. */
export function docketToJson(res: walletV1Metering.ExportProxyCasefileResponse): ProxyCasefileJson {
  const docket = parsedJson(res.docketJson, 'proxy casefile docket_json');
  if (typeof docket !== 'object' || docket === null || Array.isArray(docket)) throw new WalletContractError('proxy casefile docket_json');
  return docket as ProxyCasefileJson;
}

export function metricsQueryFromJson(q: MetricsQueryJson): walletV1Metering.GetProxyMetricsRequest {
  return { window: q.window ?? 'all', asOf: q.as_of === undefined ? undefined : new Date(q.as_of), agentId: q.agent_id, upstream: q.upstream };
}

export function metricsToJson(res: walletV1Metering.GetProxyMetricsResponse): ProxyMetricsJson {
  return {
    window: oneOf(METRICS_WINDOWS, res.window, 'proxy metrics window'),
    as_of: iso(res.asOf, 'proxy metrics as_of'),
    data: res.rows.map((r) => ({
      agent_id: r.agentId,
      upstream: r.upstream,
      calls: safeInt(r.calls, 'proxy metrics calls'),
      errors: safeInt(r.errors, 'proxy metrics errors'),
      spend: r.spend.map((m) => money(m, 'proxy metrics spend')),
      latency_ms: { p50: r.latencyP50Ms, p90: r.latencyP90Ms, p99: r.latencyP99Ms, max: r.latencyMaxMs },
    })),
  };
}
