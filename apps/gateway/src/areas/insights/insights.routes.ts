import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AgentParams,
  ContractRecommendations,
  PriceIndex,
  PriceIndexQuery,
  RecommendationQuery,
  Reputation,
  ReputationQuery,
  SellerParams,
  SellerRecommendations,
  TaskTape,
  TaskTapeQuery,
  VerifierParams,
  VerifierReputation,
  VerifierReputationQuery,
} from './insights.schemas';
import { ContractParams } from '../../lib/market/market.schemas';
import { AGENT_OR_OPERATOR, READ_ERRORS, SECURITY } from '../../lib/route-kit';
import {
  asOfFromJson,
  contractRecommendationsToJson,
  insightWindowFromJson,
  priceIndexToJson,
  reputationToJson,
  sellerRecommendationsToJson,
  taskTapeToJson,
  verifierReputationToJson,
} from './insights.mapper';

// Market insights (issue 6 §1, §2, §7) over MarketInsightsService: reputation, verifier
// reputation, recommendations, the price index and the task tape. Read-only; registered with
// prefix /v1 (full paths spelled here).

const TAGS = ['Insights'];
const AS_OF_NOTE = 'Only facts that had happened by `as_of` count, so an answer for a past `as_of` never changes. A future `as_of` is 400.';

const insightsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { insights } = fastify;

  fastify.get(
    '/reputation/:agent_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getReputation',
        summary: 'Read an agent’s reputation',
        description:
          'Computed from settled contracts, verification outcomes and dispute results inside the window (formula in the market ' +
          'README: inputs, prior, weights, decay). ' +
          AS_OF_NOTE +
          ' Errors: 404 `agent_not_found`.',
        security: SECURITY.operator_or_agent,
        params: AgentParams,
        querystring: ReputationQuery,
        response: { 200: Reputation, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const includeReceipts = q.include_receipts ?? false;
      const res = await insights.getReputation(
        { agentId: request.params.agent_id, windowDays: q.window_days, asOf: asOfFromJson(q.as_of), includeReceipts },
        request.auth.callOptions,
      );
      return reputationToJson(res.reputation, includeReceipts);
    },
  );

  fastify.get(
    '/reputation/verifier/:verifier_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getVerifierReputation',
        summary: 'Read a verifier’s reputation',
        description:
          'Agreement of the verifier’s verdicts with later dispute outcomes, volume and latency inside the window. ' +
          AS_OF_NOTE +
          ' Errors: 404 `verifier_not_found`.',
        security: SECURITY.operator_or_agent,
        params: VerifierParams,
        querystring: VerifierReputationQuery,
        response: { 200: VerifierReputation, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await insights.getVerifierReputation(
        { verifierId: request.params.verifier_id, windowDays: q.window_days, asOf: asOfFromJson(q.as_of) },
        request.auth.callOptions,
      );
      return verifierReputationToJson(res.reputation);
    },
  );

  const REC_NOTE =
    'Ranked by tag match, reputation, price fit against the budget, recency and (when telemetry provides them) matching signals; ' +
    '`exploration_rate` of the slots (rounded) go to low-history candidates. Deterministic for a `request_id` over the same data: ' +
    'the query parameter, else this request’s id (the `X-Request-Id` you sent, else a generated one — echoed in the answer).';

  fastify.get(
    '/recommendations/contracts/:contract_id/sellers',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'recommendSellers',
        summary: 'Recommend sellers for a contract',
        description: `${REC_NOTE} Never the buyer or the contract’s verifier. Errors: 404 \`contract_not_found\`.`,
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        querystring: RecommendationQuery,
        response: { 200: SellerRecommendations, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await insights.recommendSellers(
        { contractId: request.params.contract_id, limit: q.limit, explorationRate: q.exploration_rate, requestId: q.request_id ?? request.id },
        request.auth.callOptions,
      );
      return sellerRecommendationsToJson(res);
    },
  );

  fastify.get(
    '/recommendations/sellers/:seller_id/contracts',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'recommendContracts',
        summary: 'Recommend open contracts for a seller',
        description: `${REC_NOTE} Never the seller’s own contracts nor those it verifies. Errors: 404 \`agent_not_found\`.`,
        security: SECURITY.operator_or_agent,
        params: SellerParams,
        querystring: RecommendationQuery,
        response: { 200: ContractRecommendations, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await insights.recommendContracts(
        { sellerId: request.params.seller_id, limit: q.limit, explorationRate: q.exploration_rate, requestId: q.request_id ?? request.id },
        request.auth.callOptions,
      );
      return contractRecommendationsToJson(res);
    },
  );

  fastify.get(
    '/price-index',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getPriceIndex',
        summary: 'Read the price index (clearing prices per tag)',
        description:
          'Count, median, p25, p75, min and max of the awarded prices of contracts settled in the window, per tag and currency ' +
          '(sorted by tag then currency). `include_sandbox` defaults to true on a sandbox exchange and false on mainnet (the ' +
          'answer says which applied). ' +
          AS_OF_NOTE,
        security: SECURITY.operator_or_agent,
        querystring: PriceIndexQuery,
        response: { 200: PriceIndex, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await insights.getPriceIndex(
        { window: insightWindowFromJson(q.window), asOf: asOfFromJson(q.as_of), includeSandbox: q.include_sandbox, tag: q.tag },
        request.auth.callOptions,
      );
      return priceIndexToJson(res);
    },
  );

  fastify.get(
    '/task-tape',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getTaskTape',
        summary: 'Read the task tape (opened, awarded, settled)',
        description:
          'Counts and volume per currency of contracts opened (budgets), awarded (awarded prices) and settled (settled prices) in ' +
          'the window. `include_sandbox` defaults to true on a sandbox exchange and false on mainnet, as for the price index. ' +
          AS_OF_NOTE,
        security: SECURITY.operator_or_agent,
        querystring: TaskTapeQuery,
        response: { 200: TaskTape, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await insights.getTaskTape(
        { window: insightWindowFromJson(q.window), asOf: asOfFromJson(q.as_of), includeSandbox: q.include_sandbox },
        request.auth.callOptions,
      );
      return taskTapeToJson(res);
    },
  );
};

export default insightsRoutes;
