import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FaucetBody, FaucetGrant } from './funds.schemas';
import { WalletParams } from './wallets.schemas';
import { markReplayed } from '../../lib/idempotency';
import { IDEMPOTENCY_NOTE, idempotencyKeyOf, MUTATION_ERRORS, OWNER_OR_OPERATOR, SECURITY, WALLET_TAGS } from './route-kit';
import { faucetGrantToJson } from './wallet.mapper';

// POST /v1/wallets/{agent_id}/faucet: sandbox credits, capped per (agent, category, UTC day).

const faucetRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;
  fastify.post(
    '/faucet',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'walletFaucet',
        summary: 'Credit sandbox faucet funds',
        description:
          'Sandbox only: in mainnet mode the faucet does not exist (403 `faucet_unavailable`). In sandbox every identity level ' +
          'may use it (capabilities are cumulative). Currency CREDIT (another → 400 `unsupported_currency`). At most 200 CREDIT per (agent, category) per UTC day: a grant that would pass the cap is refused whole ' +
          'with 403 `faucet_cap_exceeded` and `resets_at`, `remaining_today`, `category`. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: WalletParams,
        body: FaucetBody,
        response: { 201: FaucetGrant, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const res = await walletLedger.faucet(
        {
          agentId: request.params.agent_id,
          amount: body.amount,
          currency: body.currency ?? '',
          category: body.category,
          idempotencyKey: idempotencyKeyOf(request, true),
        },
        request.auth.callOptions,
      );
      markReplayed(reply, res.idempotentReplayed);
      return reply.code(201).send(faucetGrantToJson(res.grant));
    },
  );
};

export default faucetRoutes;
