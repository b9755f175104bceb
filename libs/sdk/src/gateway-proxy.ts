// The gateway proxy (DESIGN §4): calls recorded against a budget (a hold of the agent or a
// commerce mandate for it; over budget → 402 budget_exceeded), the run's casefile, usage metrics.
import { sendIdempotent } from './idempotency';
import { iso } from './registry-base';
import type { Transport } from './transport';
import type { api } from './wire';

export type ProxyCall = api.ProxyCall;
export type ProxyBudget = api.ProxyBudget;
export type ProxyMetrics = api.ProxyMetrics;
export type ProxyMetricsRow = api.ProxyMetricsRow;
export type ProxyMetricsWindow = ProxyMetrics['window'];
export type Docket = api.Docket;

export interface RecordProxyCallInput {
  agentId: string;
  runId: string;
  upstream: string;
  operation: string;
  /** Decimal string in the budget's currency. */
  cost: string;
  currency?: string;
  /** Lowercase hex sha256 of the request and response bodies. */
  requestSha256: string;
  responseSha256: string;
  /** The upstream's HTTP status. */
  status: number;
  latencyMs: number;
  /** Exactly one budget. */
  holdId?: string;
  mandateId?: string;
  /** Reuse it when retrying (the SDK makes one when none is given): a replay records nothing twice. */
  idempotencyKey?: string;
}

export interface ProxyMetricsQuery {
  /** all (default), 1h, 1d, 7d, 30d. */
  window?: ProxyMetricsWindow;
  asOf?: Date | string;
  agentId?: string;
  upstream?: string;
}

export class GatewayProxyApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/gateway/proxy/calls → the call and its budget after it; `idempotencyOf(result)` tells a replay. */
  recordCall(input: RecordProxyCallInput): Promise<ProxyCall> {
    const body = {
      agent_id: input.agentId,
      run_id: input.runId,
      upstream: input.upstream,
      operation: input.operation,
      cost: input.cost,
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
      request_sha256: input.requestSha256,
      response_sha256: input.responseSha256,
      status: input.status,
      latency_ms: input.latencyMs,
      ...(input.holdId !== undefined ? { hold_id: input.holdId } : {}),
      ...(input.mandateId !== undefined ? { mandate_id: input.mandateId } : {}),
    } satisfies Omit<api.RecordProxyCallRequest, 'idempotency_key'>;
    return sendIdempotent<ProxyCall>(this.transport, { method: 'POST', path: '/v1/gateway/proxy/calls', body }, input.idempotencyKey);
  }

  /** The run's signed casefile docket (verify it with `client.casefiles.verify` or offline). */
  exportCasefile(agentId: string, runId: string): Promise<Docket> {
    const body = { agent_id: agentId, run_id: runId } satisfies api.ExportGatewayCasefileRequest;
    return this.transport.request({ method: 'POST', path: '/v1/gateway/casefiles/export', body });
  }

  /** Operator: per (agent, upstream) calls, errors, spend and latency percentiles. */
  metrics(query: ProxyMetricsQuery = {}): Promise<ProxyMetrics> {
    return this.transport.request({
      method: 'GET',
      path: '/v1/gateway/metrics',
      query: { window: query.window, as_of: query.asOf === undefined ? undefined : iso(query.asOf), agent_id: query.agentId, upstream: query.upstream },
    });
  }
}
