import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Result, ResultPage, SubmitResultBody } from './results.schemas';
import { ContractParams, ListResultsQuery, ResultParams } from '../../lib/market/market.schemas';
import { resultStatusFilter } from '../../lib/market/market.enums';
import { payloadToJsonText, resultToJson } from '../../lib/market/market.mapper';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { partyFromJson } from '../../lib/acting-agent';
import {
  AGENT_OR_OPERATOR,
  IDEMPOTENCY_NOTE,
  marketKeyOf,
  MUTATION_ERRORS,
  PARTY_ERRORS,
  READ_ERRORS,
  replayed,
  SECURITY,
} from '../../lib/route-kit';

// The Results area (spec §4 Results): the awarded seller's deliveries. Registered with prefix /v1.

const TAGS = ['Results'];

const resultsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { market } = fastify;

  fastify.post(
    '/contracts/:contract_id/results',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'submitResult',
        summary: 'Submit a result against an awarded contract',
        description:
          'Only the awarded seller (403 `not_awarded_seller`); the contract must be awarded (409 `invalid_state`). The contract ' +
          'becomes delivered; in verification mode `auto` the result is accepted and the contract settled at once. `artifact_refs` ' +
          'are `sha256:<64 hex>`; `payload` is any JSON value up to 256 KiB (400 `validation_failed` otherwise). Errors: 404 ' +
          '`contract_not_found`. ' +
          PARTY_ERRORS +
          ' ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        body: SubmitResultBody,
        response: { 201: Result, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await market.submitResult(
        {
          contractId: request.params.contract_id,
          sellerId: partyFromJson(b.seller_id),
          summary: b.summary,
          artifactRefs: b.artifact_refs ?? [],
          payloadJson: payloadToJsonText(b.payload),
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(resultToJson(res.result));
    },
  );

  fastify.get(
    '/contracts/:contract_id/results',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listResults',
        summary: 'List the results of a contract',
        description: 'Filters `seller_id`, `status`; cursor pagination. Errors: 404 `contract_not_found`.',
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        querystring: ListResultsQuery,
        response: { 200: ResultPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await market.listResults(
        { contractId: request.params.contract_id, page: pageFromQuery(q), sellerId: q.seller_id, status: resultStatusFilter(q.status) },
        request.auth.callOptions,
      );
      return { data: res.results.map(resultToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/results/:result_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getResult',
        summary: 'Read a result',
        description: 'Errors: 404 `result_not_found`.',
        security: SECURITY.operator_or_agent,
        params: ResultParams,
        response: { 200: Result, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await market.getResult({ resultId: request.params.result_id }, request.auth.callOptions);
      return resultToJson(res.result);
    },
  );
};

export default resultsRoutes;
