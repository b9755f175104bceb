import { formatAmount } from '@exchange/platform';
import { walletV1Events, type walletV1Metering } from '@exchange/proto';
import { envelope, WALLET_EVENT_TYPES, type Caller } from '../events/wallet.events';
import { remaining, type ProxyBudget } from './budget';
import type { ProxyCall } from './proxy-call';

// The proxy's messages in proto form (the event payload and, through the mapper, the responses).

export function toProtoProxyCall(c: ProxyCall): walletV1Metering.ProxyCall {
  return {
    callId: c.callId,
    agentId: c.agentId,
    runId: c.runId,
    upstream: c.upstream,
    operation: c.operation,
    cost: formatAmount(c.cost),
    currency: c.currency,
    requestSha256: c.requestSha256,
    responseSha256: c.responseSha256,
    status: c.status,
    latencyMs: c.latencyMs,
    budgetKind: c.budgetKind,
    budgetRef: c.budgetRef,
    idempotencyKey: c.idempotencyKey ?? undefined,
    recordedAt: c.recordedAt,
  };
}

export function toProtoProxyBudget(b: ProxyBudget): walletV1Metering.ProxyBudget {
  return {
    kind: b.kind,
    ref: b.ref,
    currency: b.currency,
    limit: formatAmount(b.limit),
    spent: formatAmount(b.spent),
    remaining: formatAmount(remaining(b)),
    calls: b.calls.toString(),
  };
}

export const proxyEvents = {
  /** exchange.wallet.proxy_call.recorded, about the calling agent. */
  recorded: (call: ProxyCall, budget: ProxyBudget, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.proxy_call_recorded,
      call.agentId,
      caller,
      walletV1Events.ProxyCallRecorded.toJSON({ call: toProtoProxyCall(call), budget: toProtoProxyBudget(budget) }),
    ),
};
