import { formatAmount } from '@exchange/platform';
import type { walletV1Metering } from '@exchange/proto';
import type { ProxyMetrics } from './metrics-window';
import type { RecordProxyCallCommand } from './proxy-call';
import { toProtoProxyBudget, toProtoProxyCall } from './proxy.events';
import type { ProxyCallResult } from './proxy.service';

/** The request as a command: the budget oneof becomes hold_id or mandate_id. */
export function fromProtoRecordProxyCall(req: walletV1Metering.RecordProxyCallRequest): RecordProxyCallCommand {
  const { budget, ...fields } = req;
  return {
    ...fields,
    holdId: budget?.$case === 'holdId' ? budget.value : undefined,
    mandateId: budget?.$case === 'mandateId' ? budget.value : undefined,
  };
}

export function toProtoRecordProxyCallResponse(r: ProxyCallResult): walletV1Metering.RecordProxyCallResponse {
  return { call: toProtoProxyCall(r.call), budget: toProtoProxyBudget(r.budget), idempotentReplayed: r.idempotentReplayed };
}

export function toProtoProxyMetrics(m: ProxyMetrics): walletV1Metering.GetProxyMetricsResponse {
  return {
    window: m.window,
    asOf: m.asOf,
    rows: m.rows.map((r) => ({
      agentId: r.agentId,
      upstream: r.upstream,
      calls: String(r.calls),
      errors: String(r.errors),
      spend: r.spend.map((s) => ({ amount: formatAmount(s.amount), currency: s.currency })),
      latencyP50Ms: r.latencyP50Ms,
      latencyP90Ms: r.latencyP90Ms,
      latencyP99Ms: r.latencyP99Ms,
      latencyMaxMs: r.latencyMaxMs,
    })),
  };
}
