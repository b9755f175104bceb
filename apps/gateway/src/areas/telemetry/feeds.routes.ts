import { telemetryV1Wire } from '@exchange/proto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Readable } from 'node:stream';
import { actorOf } from '../../lib/acting-agent';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { AGENT_OR_OPERATOR, MUTATION_ERRORS, OPERATOR_ONLY, READ_ERRORS, SECURITY } from '../../lib/route-kit';
import { problem } from '../../plugins/app/problem';
import {
  CategoryObjectPage,
  CategoryObjectsQuery,
  CategoryPage,
  CategoryParams,
  ContractTimeline,
  EventsExportQuery,
  EventsQuery,
  MatchingSignal,
  MatchingSignalBody,
  OPERATOR_EVENT_EXAMPLE,
  OperatorEventPage,
  PageQuery,
  PublicEventPage,
  TimelineParams,
} from './feeds.schemas';
import { categoryObjectToJson, categoryToJson, filterFromQuery, operatorEventToJson, publicEventToJson, signalToJson } from './telemetry.mapper';

// Telemetry's feeds over TelemetryService (DESIGN §4 Telemetry): matching signals, categories,
// public and operator events, contract timelines, and the two JSONL exports streamed from
// telemetry's chunks to the HTTP client with back-pressure. Telemetry refuses agents on the
// operator RPCs too; the gateway refuses them first (403 `operator_token_required`). Full paths.

export const TAGS = ['Telemetry'];

const FILTERS =
  'Filters (all optional, ANDed): `contract_id`, `listing_id`, `event_type` (exact, or a prefix ending in `.*`), `from` ' +
  '(occurred_at ≥) and `to` (occurred_at <; after `from`, else 400 `validation_failed`).';
const JSONL_NOTE =
  'The body is JSONL (`application/x-ndjson`): one operator event per line, the same object as a list item, streamed as it is ' +
  'read (constant memory for any size). A refusal comes before the first byte as a problem; a failure after it aborts the ' +
  'response (the last line is then incomplete: read until a clean end).';
const JSONL_RESPONSE = Type.Unsafe({
  description: 'JSONL, one event per line',
  content: { 'application/x-ndjson': { schema: { type: 'string' }, example: `${JSON.stringify(OPERATOR_EVENT_EXAMPLE)}\n` } },
});

/** `to` must come after `from` (telemetry checks it too; refused here before the call). */
function checkRange(q: { from?: string; to?: string }): void {
  if (q.from !== undefined && q.to !== undefined && Date.parse(q.to) <= Date.parse(q.from)) {
    throw problem(400, 'validation_failed', '`to` must be after `from`', { errors: [{ pointer: '/to', message: 'must be after from' }] });
  }
}

function sendJsonl(reply: FastifyReply, body: Readable, filename: string) {
  // A client gone before the end: stop reading (destroying the body cancels telemetry's stream).
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) body.destroy();
  });
  return reply.header('content-type', 'application/x-ndjson').header('content-disposition', `attachment; filename="${filename}"`).send(body);
}

const feedsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { telemetry } = fastify;

  fastify.post(
    '/v1/telemetry/matching-signals',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'recordMatchingSignal',
        summary: 'Ingest a matching signal',
        description:
          'A seller was shown (`impression`), clicked, shortlisted or awarded for a contract; recorded for the acting agent (the ' +
          'operator: no recorder) and fed to the market’s recommendations. 201 when new; the same signal again (recorder, type, ' +
          'contract, seller, request) is 200 with `duplicate: true` and records nothing. Errors: 400 `validation_failed`, ' +
          '`invalid_signal_time`; 404 `contract_not_found`.',
        security: SECURITY.operator_or_agent,
        body: MatchingSignalBody,
        response: { 200: MatchingSignal, 201: MatchingSignal, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await telemetry.recordMatchingSignal(
        {
          actor: actorOf(request),
          signal: telemetryV1Wire.signalType.toProto(b.signal),
          contractId: b.contract_id,
          sellerId: b.seller_id,
          listingId: b.listing_id,
          requestId: b.request_id,
          occurredAt: b.occurred_at === undefined ? undefined : new Date(b.occurred_at),
        },
        request.auth.callOptions,
      );
      return reply.code(res.duplicate ? 200 : 201).send(signalToJson(res));
    },
  );

  fastify.get(
    '/v1/telemetry/categories',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listTelemetryCategories',
        summary: 'List categories',
        description: 'Every tag carried by a contract, listing or coordination thread, in tag order, with its counts; cursor pagination.',
        security: SECURITY.operator_or_agent,
        querystring: PageQuery,
        response: { 200: CategoryPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await telemetry.listCategories({ actor: actorOf(request), page: pageFromQuery(request.query) }, request.auth.callOptions);
      return { data: res.categories.map(categoryToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/v1/telemetry/category/:tag',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listTelemetryCategoryObjects',
        summary: 'List the objects of a category',
        description: 'The tag’s counts and its contracts, listings and threads (`kind` narrows), newest first; cursor pagination. Errors: 404 `category_not_found`.',
        security: SECURITY.operator_or_agent,
        params: CategoryParams,
        querystring: CategoryObjectsQuery,
        response: { 200: CategoryObjectPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await telemetry.listCategoryObjects(
        { actor: actorOf(request), tag: request.params.tag, page: pageFromQuery(q), kind: q.kind },
        request.auth.callOptions,
      );
      return { category: categoryToJson(res.category), data: res.objects.map(categoryObjectToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/v1/telemetry/events/public',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listPublicEvents',
        summary: 'List public events',
        description:
          'Events as a stranger may see them: no actor, no operator notes, no private amounts, and a private party as its ' +
          'current alias (`anon:…`), never its agent id. Operator-only event types are absent. In store order (`seq`); cursor ' +
          `pagination. ${FILTERS}`,
        security: SECURITY.operator_or_agent,
        querystring: EventsQuery,
        response: { 200: PublicEventPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      checkRange(q);
      const res = await telemetry.listPublicEvents({ actor: actorOf(request), filter: filterFromQuery(q), page: pageFromQuery(q) }, request.auth.callOptions);
      return { data: res.events.map(publicEventToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/v1/telemetry/events/operator',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'listOperatorEvents',
        summary: 'List complete events (operator)',
        description: `Every recorded event as published (DESIGN §5 envelope), in store order (\`seq\`); cursor pagination. ${FILTERS}`,
        security: SECURITY.operator,
        querystring: EventsQuery,
        response: { 200: OperatorEventPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      checkRange(q);
      const res = await telemetry.listOperatorEvents({ actor: actorOf(request), filter: filterFromQuery(q), page: pageFromQuery(q) }, request.auth.callOptions);
      return { data: res.events.map(operatorEventToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/v1/telemetry/events/operator/export',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'exportOperatorEvents',
        summary: 'Export complete events as JSONL (operator)',
        description: `Every matching event, in store order. ${FILTERS} ${JSONL_NOTE}`,
        security: SECURITY.operator,
        querystring: EventsExportQuery,
        response: { 200: JSONL_RESPONSE, ...READ_ERRORS },
      },
    },
    async (request, reply) => {
      checkRange(request.query);
      const body = await telemetry.exportOperatorEvents({ actor: actorOf(request), filter: filterFromQuery(request.query) }, request.auth.callOptions);
      return sendJsonl(reply, body, 'events.jsonl');
    },
  );

  fastify.get(
    '/v1/telemetry/contracts/:contract_id/timeline',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'getContractTimeline',
        summary: 'Contract timeline (operator)',
        description:
          'Every event of the contract and of its offers, results, verification reports, disputes, receipts, holds and ' +
          'artifacts, in the order they occurred; cursor pagination. Errors: 404 `contract_not_found` (no event of it recorded).',
        security: SECURITY.operator,
        params: TimelineParams,
        querystring: PageQuery,
        response: { 200: ContractTimeline, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await telemetry.getContractTimeline(
        { actor: actorOf(request), contractId: request.params.contract_id, page: pageFromQuery(request.query) },
        request.auth.callOptions,
      );
      return { contract_id: res.contractId, data: res.events.map(operatorEventToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/v1/telemetry/contracts/:contract_id/timeline/export',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'exportContractTimeline',
        summary: 'Export a contract timeline as JSONL (operator)',
        description: `The whole timeline in order. Errors: 404 \`contract_not_found\`. ${JSONL_NOTE}`,
        security: SECURITY.operator,
        params: TimelineParams,
        response: { 200: JSONL_RESPONSE, ...READ_ERRORS },
      },
    },
    async (request, reply) => {
      const body = await telemetry.exportContractTimeline({ actor: actorOf(request), contractId: request.params.contract_id }, request.auth.callOptions);
      return sendJsonl(reply, body, `timeline-${request.params.contract_id}.jsonl`);
    },
  );
};

export default feedsRoutes;
