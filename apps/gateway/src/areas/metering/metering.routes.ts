import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signerOf } from '../../lib/acting-agent';
import { AGENT_OR_OPERATOR, MUTATION_ERRORS, OPERATOR_ONLY, READ_ERRORS, SECURITY } from '../../lib/route-kit';
import { epochTableFromJson, epochTableToJson, ingestFromJson, meterEventToJson } from './metering.mapper';
import { CreateEpochTableBody, EpochTableParams, IngestMeterEventBody, MeterEpochTable, MeterEvent, MeterEventParams } from './metering.schemas';

// Metering over WalletLedgerService (spec "Metering"): signed meter events, ingested and priced
// by the wallet-ledger (which stores them as registry objects), and the operator's epoch
// pricing tables (exchange-signed). Full paths.

export const TAGS = ['Metering'];

export const PERIOD_RULES =
  'Periods are UTC months: a meter event belongs to the month of its `occurred_at`. The current and the previous month are ' +
  'open until the subject’s period receipt is emitted (then 409 `billing_period_closed`); older is 409 `billing_period_closed`; ' +
  'more than 5 minutes ahead of the exchange clock is 400 `meter_event_in_future`.';

const meteringRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;

  fastify.post(
    '/v1/meter_events/ingest',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'ingestMeterEvent',
        summary: 'Ingest a signed meter event',
        description:
          '`signature` is base64 ed25519 by an active key of `signer_agent_id` over the canonical JSON (legacy v1) of `payload` ' +
          '(else 400 `object_signature_invalid`); an agent-signed request must come from `signer_agent_id` (403 ' +
          '`acting_agent_mismatch`). The event is priced by `epoch`, which must cover `occurred_at` and price `meter` (404 ' +
          '`epoch_not_found`, 409 `epoch_mismatch`). 201 when new; the same event again (same `object_id`) is 200 and counted ' +
          `once. ${PERIOD_RULES} Errors: 404 \`agent_not_found\`, 503 \`read_only\`.`,
        security: SECURITY.operator_or_agent,
        body: IngestMeterEventBody,
        response: { 200: MeterEvent, 201: MeterEvent, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const body = request.body;
      signerOf(body.signer_agent_id, request.auth.actingAgentId, 'signer_agent_id');
      const res = await walletLedger.ingestMeterEvent(ingestFromJson(body), request.auth.callOptions);
      const event = meterEventToJson(res.event);
      return reply.code(res.created ? 201 : 200).header('location', `/v1/meter_events/${event.object_id}`).send(event);
    },
  );

  fastify.get(
    '/v1/meter_events/:object_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getMeterEvent',
        summary: 'Read a meter event',
        description:
          'The operator reads any event; an acting agent (agent-signed, or the operator with `X-Agent-Id`) only events it signed or ' +
          'is billed for — any other is 404 `meter_event_not_found`, as an unknown one.',
        security: SECURITY.operator_or_agent,
        params: MeterEventParams,
        response: { 200: MeterEvent, ...READ_ERRORS },
      },
    },
    async (request) => {
      const viewer = request.auth.actingAgentId ?? undefined;
      const res = await walletLedger.getMeterEvent({ objectId: request.params.object_id, viewerAgentId: viewer }, request.auth.callOptions);
      return meterEventToJson(res.event);
    },
  );

  fastify.post(
    '/v1/meter_epoch_tables',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'createMeterEpochTable',
        summary: 'Create an epoch pricing table (operator)',
        description:
          'An immutable table of unit prices valid over [`effective_from`, `effective_to`), signed by the exchange key and stored ' +
          'in the registry as a `meter_epoch_table` object. 201 when created; the identical table again is 200. Errors: 400 ' +
          '`validation_failed` (`effective_to` not after `effective_from`, a bad price), 409 `epoch_exists` (the name with other ' +
          'contents), 409 `epoch_overlap` (a meter already priced by another epoch over part of the range), 503 `read_only`.',
        security: SECURITY.operator,
        body: CreateEpochTableBody,
        response: { 200: MeterEpochTable, 201: MeterEpochTable, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await walletLedger.createMeterEpochTable(epochTableFromJson(request.body), request.auth.callOptions);
      const table = epochTableToJson(res.table);
      return reply.code(res.created ? 201 : 200).header('location', `/v1/meter_epoch_tables/${table.object_id}`).send(table);
    },
  );

  fastify.get(
    '/v1/meter_epoch_tables/:object_id',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'getMeterEpochTable',
        summary: 'Read an epoch table (operator)',
        description: 'The table, its signed payload and the exchange signature. Errors: 404 `meter_epoch_table_not_found`.',
        security: SECURITY.operator,
        params: EpochTableParams,
        response: { 200: MeterEpochTable, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await walletLedger.getMeterEpochTable({ objectId: request.params.object_id }, request.auth.callOptions);
      return epochTableToJson(res.table);
    },
  );
};

export default meteringRoutes;
