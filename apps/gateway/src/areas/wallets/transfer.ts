import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Transfer, TransferBody } from './funds.schemas';
import { WalletParams } from './wallets.schemas';
import { markReplayed } from '../../lib/idempotency';
import { IDEMPOTENCY_NOTE, idempotencyKeyOf, MUTATION_ERRORS, OWNER_OR_OPERATOR, SECURITY, WALLET_TAGS } from './route-kit';
import { transferToJson } from './wallet.mapper';

// POST /v1/wallets/{agent_id}/transfer: available funds to another agent's wallet.

const transferRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;
  fastify.post(
    '/transfer',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'walletTransfer',
        summary: 'Transfer funds to another agent',
        description:
          'Moves `amount` from this wallet’s available balance to `to_agent_id`. Errors: 409 `insufficient_funds`, ' +
          '400 `self_transfer`, 404 `agent_not_found` (unknown recipient), 403 `agent_frozen`. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: WalletParams,
        body: TransferBody,
        response: { 201: Transfer, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const res = await walletLedger.transfer(
        {
          agentId: request.params.agent_id,
          toAgentId: body.to_agent_id,
          amount: body.amount,
          currency: body.currency,
          memo: body.memo,
          idempotencyKey: idempotencyKeyOf(request, true),
        },
        request.auth.callOptions,
      );
      markReplayed(reply, res.idempotentReplayed);
      return reply.code(201).send(transferToJson(res.transfer));
    },
  );
};

export default transferRoutes;
