import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BalanceSnapshot } from './funds.schemas';
import { WalletParams } from './wallets.schemas';
import { OWNER_OR_OPERATOR, READ_ERRORS, SECURITY, WALLET_TAGS } from './route-kit';
import { balanceToJson } from './wallet.mapper';

// GET /v1/wallets/{agent_id}: the balance snapshot (reads work for frozen agents too).

const balanceRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;
  // '' (not '/') so the path is exactly /v1/wallets/{agent_id}, as in the spec.
  fastify.get(
    '',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'getWalletBalance',
        summary: 'Balance snapshot: available, held and total per currency',
        description: 'The wallet owner (agent-signed) or an operator. An unknown agent is 404 `agent_not_found`.',
        security: SECURITY.operator_or_agent,
        params: WalletParams,
        response: { 200: BalanceSnapshot, ...READ_ERRORS },
      },
    },
    async (request) => balanceToJson(await walletLedger.getBalance({ agentId: request.params.agent_id }, request.auth.callOptions)),
  );
};

export default balanceRoutes;
