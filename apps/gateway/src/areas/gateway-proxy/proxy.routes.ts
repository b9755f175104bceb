import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signerOf } from '../../lib/acting-agent';
import { AGENT_OR_OPERATOR, marketKeyOf, MUTATION_ERRORS, OPERATOR_ONLY, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import { requireExactlyOne } from '../billing/exactly-one';
import { docketToJson, metricsQueryFromJson, metricsToJson, proxyCallToJson, recordCallFromJson } from './proxy.mapper';
import { ExportProxyCasefileBody, MetricsQuery, ProxyCall, ProxyCasefile, ProxyMetrics, RecordProxyCallBody } from './proxy.schemas';

// The gateway proxy over WalletLedgerService (spec "Gateway"): calls recorded against a budget
// (checked and recorded in one wallet-ledger transaction, so concurrent calls never overspend),
// the run's signed casefile, and usage metrics. Full paths.

export const TAGS = ['Gateway proxy'];

/** 402 is this area's own answer (the shared table has no entry for it). */
const BUDGET_EXCEEDED = {
  402: Type.Unsafe({
    description: 'Payment required: `budget_exceeded` — the call costs more than its budget has left (`limit`, `spent`, `remaining`, `cost`); nothing was recorded',
    content: { 'application/problem+json': { schema: Type.Unsafe({ $ref: 'Problem#' }) } },
  }),
};

const SELF_NOTE = 'The operator, or the agent itself (agent-signed: `agent_id` must be the signing agent, else 403 `acting_agent_mismatch`).';

const proxyRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;

  fastify.post(
    '/v1/gateway/proxy/calls',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'recordProxyCall',
        summary: 'Record a proxy call (budget enforced)',
        description:
          `${SELF_NOTE} The budget is exactly one of \`hold_id\` (an active hold of the agent made through the wallet routes, not ` +
          'a contract’s escrow) and `mandate_id` (an active commerce mandate for the agent; its amount limit). Σ cost of the ' +
          'recorded calls never exceeds the budget: a call that would is 402 `budget_exceeded` and nothing is recorded, even under ' +
          'concurrency. The hold stays held (the proxy accounts against it; consume or release it through the wallet routes). ' +
          'Optional idempotency key (body `idempotency_key` or header `Idempotency-Key`, per agent): a replay answers the first ' +
          'outcome again with `Idempotent-Replayed: true`; the same key with another call is 422 `idempotency_key_reused`. Errors: ' +
          '400 `validation_failed`, `invalid_amount`, `budget_currency_mismatch`; 404 `hold_not_found`, `mandate_not_found`; 409 ' +
          '`budget_unavailable` (not active, expired, another agent’s; `reason`); 503 `commerce_unavailable`, `read_only`.',
        security: SECURITY.operator_or_agent,
        body: RecordProxyCallBody,
        response: { 201: ProxyCall, ...MUTATION_ERRORS, ...BUDGET_EXCEEDED },
      },
    },
    async (request, reply) => {
      const body = request.body;
      signerOf(body.agent_id, request.auth.actingAgentId, 'agent_id');
      requireExactlyOne(body, 'hold_id', 'mandate_id');
      const res = await walletLedger.recordProxyCall(recordCallFromJson(body, marketKeyOf(request)), request.auth.callOptions);
      replayed(reply, res);
      return reply.code(201).send(proxyCallToJson(res));
    },
  );

  fastify.post(
    '/v1/gateway/casefiles/export',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'exportGatewayCasefile',
        summary: 'Export a gateway run casefile',
        description:
          `${SELF_NOTE} The signed casefile docket of the agent’s run: subject {agent_id, run_id}, one \`proxy_call\` entry per ` +
          'call in recorded order, signed by the exchange key. Verify it with POST /v1/casefiles/verify `{docket}` or offline ' +
          '(/skill.md). Errors: 404 `proxy_run_not_found`; 409 `proxy_run_too_large` (a run of more than 4 000 calls).',
        security: SECURITY.operator_or_agent,
        body: ExportProxyCasefileBody,
        response: { 200: ProxyCasefile, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const agentId = signerOf(request.body.agent_id, request.auth.actingAgentId, 'agent_id');
      const res = await walletLedger.exportProxyCasefile({ agentId, runId: request.body.run_id }, request.auth.callOptions);
      return docketToJson(res);
    },
  );

  fastify.get(
    '/v1/gateway/metrics',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'getGatewayMetrics',
        summary: 'Gateway usage metrics (operator)',
        description:
          'Per (agent, upstream): calls, errors (upstream status ≥ 400), spend per currency and latency percentiles over the window ' +
          '(`all` default, `1h`, `1d`, `7d`, `30d`) ending at `as_of` (default now; in the future: 400 `validation_failed`); ' +
          'filters `agent_id` and `upstream`.',
        security: SECURITY.operator,
        querystring: MetricsQuery,
        response: { 200: ProxyMetrics, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await walletLedger.getProxyMetrics(metricsQueryFromJson(request.query), request.auth.callOptions);
      return metricsToJson(res);
    },
  );
};

export default proxyRoutes;
