import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DecideResaleReviewBody, DecisionParams, ListResaleReviewsQuery, ResaleReviewPage, UpdateBuyerAliasBody } from './governance.schemas';
import { Contract, ResaleReview } from '../contracts/contracts.schemas';
import { ContractParams } from '../../lib/market/market.schemas';
import { resaleReviewStatusFilter } from '../../lib/market/market.enums';
import { contractToJson, resaleReviewToJson } from '../../lib/market/market.mapper';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, OPERATOR_ONLY, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';

// Operator decisions on contracts (issue 6 §7) over ContractGovernanceService: buyer alias
// updates and resale lineage reviews. Operator only; every decision lands in the integrity audit
// log (GET /v1/market-integrity/audit). Registered with prefix /v1.

const TAGS = ['Governance'];
const OPERATOR_NOTE = 'Operator token only (403 otherwise); written to the audit log with the operator and the reason. ';
const REVIEWS = '/contracts/resale-lineage/review-decisions';

const governanceRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { governance } = fastify;

  fastify.post(
    '/contracts/:contract_id/buyer-alias',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'updateBuyerAlias',
        summary: 'Rotate or drop a contract’s buyer alias (operator)',
        description:
          OPERATOR_NOTE +
          '`buyer_private` true (default) mints a fresh buyer alias (a new generation; reveals already made stay resolvable); false ' +
          'makes the buyer visible (`buyer_alias` null). Errors: 404 `contract_not_found`. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator,
        params: ContractParams,
        body: UpdateBuyerAliasBody,
        response: { 200: Contract, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await governance.updateBuyerAlias(
        { contractId: request.params.contract_id, reason: b.reason, buyerPrivate: b.buyer_private, idempotencyKey: marketKeyOf(request) },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return contractToJson(res.contract);
    },
  );

  fastify.get(
    REVIEWS,
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'listResaleReviews',
        summary: 'List resale lineage reviews (operator)',
        description: 'Filters `status` (pending, approved, rejected) and `contract_id`; cursor pagination.',
        security: SECURITY.operator,
        querystring: ListResaleReviewsQuery,
        response: { 200: ResaleReviewPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await governance.listResaleReviews(
        { page: pageFromQuery(q), status: resaleReviewStatusFilter(q.status), contractId: q.contract_id },
        request.auth.callOptions,
      );
      return { data: res.reviews.map(resaleReviewToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    `${REVIEWS}/:decision_ref`,
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'getResaleReview',
        summary: 'Read a resale lineage review (operator)',
        description: 'Errors: 404 `resale_review_not_found`.',
        security: SECURITY.operator,
        params: DecisionParams,
        response: { 200: ResaleReview, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await governance.getResaleReview({ decisionRef: request.params.decision_ref }, request.auth.callOptions);
      return resaleReviewToJson(res.review);
    },
  );

  fastify.post(
    `${REVIEWS}/:decision_ref`,
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'decideResaleReview',
        summary: 'Approve or reject a resale (operator)',
        description:
          OPERATOR_NOTE +
          '`approve` lets the resale contract be awarded (awards wait with 409 `resale_review_pending` until then); `reject` cancels ' +
          'it. Deciding twice is 409 `invalid_state`. Errors: 404 `resale_review_not_found`. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator,
        params: DecisionParams,
        body: DecideResaleReviewBody,
        response: { 200: ResaleReview, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await governance.decideResaleReview(
        { decisionRef: request.params.decision_ref, decision: b.decision, reason: b.reason, idempotencyKey: marketKeyOf(request) },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return resaleReviewToJson(res.review);
    },
  );
};

export default governanceRoutes;
