import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreatePayoutDestinationBody, PayoutDestination, PayoutDestinationPage } from './payments.schemas';
import { WalletPageQuery, WalletParams } from './wallets.schemas';
import { markReplayed } from '../../lib/idempotency';
import { idempotencyKeyOf, MUTATION_ERRORS, OWNER_OR_OPERATOR, READ_ERRORS, SECURITY, UNKNOWN_WALLET_NOTE, WALLET_TAGS } from './route-kit';
import { payoutDestinationFromJson, payoutDestinationToJson } from './wallet.mapper';
import { nextCursorToJson } from '../../lib/pagination';

// Payout destinations: where withdrawals go. Not a balance mutation, so the key is optional.

const payoutDestinationsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;

  fastify.post(
    '/payout_destinations',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'createPayoutDestination',
        summary: 'Create a payout destination',
        description:
          'A `crypto_address` whose `details.address` is one of the agent’s signing keys (base64, base64url or hex) is refused ' +
          'with 400 `signing_key_reuse`. The idempotency key is optional here; when sent, the usual replay rules apply.',
        security: SECURITY.operator_or_agent,
        params: WalletParams,
        body: CreatePayoutDestinationBody,
        response: { 201: PayoutDestination, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const res = await walletLedger.createPayoutDestination(
        {
          agentId: request.params.agent_id,
          ...payoutDestinationFromJson(body),
          idempotencyKey: idempotencyKeyOf(request, false),
        },
        request.auth.callOptions,
      );
      markReplayed(reply, res.idempotentReplayed);
      return reply.code(201).send(payoutDestinationToJson(res.payoutDestination));
    },
  );

  fastify.get(
    '/payout_destinations',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'listPayoutDestinations',
        summary: 'List payout destinations, newest first',
        description: UNKNOWN_WALLET_NOTE,
        security: SECURITY.operator_or_agent,
        params: WalletParams,
        querystring: WalletPageQuery,
        response: { 200: PayoutDestinationPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await walletLedger.listPayoutDestinations(
        { agentId: request.params.agent_id, page: { limit: q.limit ?? 0, cursor: q.cursor ?? '' } },
        request.auth.callOptions,
      );
      return { data: res.payoutDestinations.map(payoutDestinationToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );
};

export default payoutDestinationsRoutes;
