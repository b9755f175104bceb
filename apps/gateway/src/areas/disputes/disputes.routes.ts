import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Dispute, DisputePage, OpenDisputeBody, ResolveDisputeBody } from './disputes.schemas';
import { ContractParams, DisputeParams, ListDisputesQuery } from '../../lib/market/market.schemas';
import { disputeOutcomeFromJson, disputeStatusFilter } from '../../lib/market/market.enums';
import { disputeToJson } from '../../lib/market/market.mapper';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { partyFromJson } from '../../lib/acting-agent';
import {
  AGENT_OR_OPERATOR,
  IDEMPOTENCY_NOTE,
  marketKeyOf,
  MUTATION_ERRORS,
  OPERATOR_ONLY,
  PARTY_ERRORS,
  READ_ERRORS,
  replayed,
  SECURITY,
  STATE_NOTE,
} from '../../lib/route-kit';

// The Disputes area (spec §4 Disputes): a party opens, an operator resolves (money moves through
// the escrow, or back from the seller after settlement). Registered with prefix /v1.

const TAGS = ['Disputes'];

const disputesRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { market } = fastify;

  fastify.post(
    '/contracts/:contract_id/disputes',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'openDispute',
        summary: 'Open a dispute on a contract',
        description:
          'By the buyer or the awarded seller (else 403 `not_contract_party`), on an awarded, delivered, accepted or settled ' +
          'contract (409 `invalid_state` otherwise, also while a dispute is open); after settlement only within the dispute ' +
          'window (409 `dispute_window_closed`). 503 `wallet_unavailable` when a pending settlement step cannot reach the wallet. ' +
          'Errors: 404 `contract_not_found`. ' +
          PARTY_ERRORS +
          ' ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        body: OpenDisputeBody,
        response: { 201: Dispute, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await market.openDispute(
        {
          contractId: request.params.contract_id,
          openedBy: partyFromJson(b.opened_by),
          reason: b.reason,
          evidenceRefs: b.evidence_refs ?? [],
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(disputeToJson(res.dispute));
    },
  );

  fastify.get(
    '/contracts/:contract_id/disputes',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listDisputes',
        summary: 'List the disputes of a contract',
        description: 'Filters `opened_by`, `status`; cursor pagination. Errors: 404 `contract_not_found`.',
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        querystring: ListDisputesQuery,
        response: { 200: DisputePage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await market.listDisputes(
        { contractId: request.params.contract_id, page: pageFromQuery(q), openedBy: q.opened_by, status: disputeStatusFilter(q.status) },
        request.auth.callOptions,
      );
      return { data: res.disputes.map(disputeToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/disputes/:dispute_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getDispute',
        summary: 'Read a dispute',
        description: 'Errors: 404 `dispute_not_found`.',
        security: SECURITY.operator_or_agent,
        params: DisputeParams,
        response: { 200: Dispute, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await market.getDispute({ disputeId: request.params.dispute_id }, request.auth.callOptions);
      return disputeToJson(res.dispute);
    },
  );

  fastify.post(
    '/disputes/:dispute_id/resolve',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'resolveDispute',
        summary: 'Resolve a dispute (operator)',
        description:
          'Outcome `seller` (the seller is paid), `buyer` (the buyer is refunded) or `split` (`seller_share_bps` of the price to ' +
          'the seller; required for split and refused otherwise: 400 `invalid_seller_share`). After settlement the seller pays ' +
          'back (409 `insufficient_funds` when short: the dispute stays open). Errors: 404 `dispute_not_found`; 503 ' +
          '`wallet_unavailable` (completes on its own; retry with the same key). ' +
          STATE_NOTE +
          ' ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator,
        params: DisputeParams,
        body: ResolveDisputeBody,
        response: { 200: Dispute, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await market.resolveDispute(
        {
          disputeId: request.params.dispute_id,
          outcome: disputeOutcomeFromJson(b.outcome),
          sellerShareBps: b.seller_share_bps,
          rationale: b.rationale,
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return disputeToJson(res.dispute);
    },
  );
};

export default disputesRoutes;
