import { recordEntry, signDocket, type Docket } from '@exchange/casefile';
import { formatAmount } from '@exchange/platform';
import type { ProxyCall } from './proxy-call';

/** A docket entry is ~700 bytes: 4 000 calls stay well inside gRPC's 4 MiB message limit. */
export const MAX_CASEFILE_CALLS = 4_000;

// A run's casefile (README.md "Gateway proxy"): one signed docket, subject {agent_id, run_id},
// one "proxy_call" record entry per call in recorded order, verifiable offline with the exchange key.

/** A call as the REST API shows it: snake_case, cost a decimal string, recorded_at ISO 8601. */
export function proxyCallContent(call: ProxyCall): Record<string, string | number | null> {
  return {
    call_id: call.callId,
    agent_id: call.agentId,
    run_id: call.runId,
    upstream: call.upstream,
    operation: call.operation,
    cost: formatAmount(call.cost),
    currency: call.currency,
    request_sha256: call.requestSha256,
    response_sha256: call.responseSha256,
    status: call.status,
    latency_ms: call.latencyMs,
    budget_kind: call.budgetKind,
    budget_ref: call.budgetRef,
    idempotency_key: call.idempotencyKey,
    recorded_at: call.recordedAt.toISOString(),
  };
}

/** The signed docket of a run's calls (already in (recorded_at, call_id) order). */
export function proxyRunDocket(run: { agentId: string; runId: string }, calls: ProxyCall[], now: Date, exchangeSeed: Uint8Array): Docket {
  return signDocket(
    {
      subject: { agent_id: run.agentId, run_id: run.runId },
      entries: calls.map((c) => recordEntry('proxy_call', c.callId, proxyCallContent(c))),
      createdAt: now,
    },
    exchangeSeed,
  );
}
