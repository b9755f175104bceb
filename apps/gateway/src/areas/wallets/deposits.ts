import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateDepositBody, Deposit, DepositPage } from './payments.schemas';
import { DepositParams, KeyOnlyBody, ListDepositsQuery, WalletParams } from './wallets.schemas';
import { markReplayed } from '../../lib/idempotency';
import {
  IDEMPOTENCY_NOTE,
  idempotencyKeyOf,
  MUTATION_ERRORS,
  OPERATOR_ONLY,
  OWNER_OR_OPERATOR,
  READ_ERRORS,
  SECURITY,
  UNKNOWN_WALLET_NOTE,
  WALLET_TAGS,
} from './route-kit';
import { depositMethodFromJson, depositStatusFromJson, depositToJson } from './wallet.mapper';
import { nextCursorToJson } from '../../lib/pagination';

// Deposits: the owner announces one (pending); an operator confirms it (credits available from
// deposits clearing) or expires it.

const depositsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;

  fastify.post(
    '/deposits',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'createDeposit',
        summary: 'Create a deposit request (pending until an operator confirms it)',
        description: IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: WalletParams,
        body: CreateDepositBody,
        response: { 201: Deposit, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const res = await walletLedger.createDeposit(
        {
          agentId: request.params.agent_id,
          amount: body.amount,
          currency: body.currency,
          method: depositMethodFromJson(body.method),
          reference: body.reference,
          idempotencyKey: idempotencyKeyOf(request, true),
        },
        request.auth.callOptions,
      );
      markReplayed(reply, res.idempotentReplayed);
      return reply.code(201).send(depositToJson(res.deposit));
    },
  );

  fastify.get(
    '/deposits',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'listDeposits',
        summary: 'List deposits, newest first',
        description: UNKNOWN_WALLET_NOTE,
        security: SECURITY.operator_or_agent,
        params: WalletParams,
        querystring: ListDepositsQuery,
        response: { 200: DepositPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await walletLedger.listDeposits(
        { agentId: request.params.agent_id, page: { limit: q.limit ?? 0, cursor: q.cursor ?? '' }, status: depositStatusFromJson(q.status) },
        request.auth.callOptions,
      );
      return { data: res.deposits.map(depositToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  for (const [verb, operationId, summary, description, call] of [
    [
      'confirm',
      'confirmDeposit',
      'Confirm a deposit (operator): credits the wallet',
      'Only a pending deposit: otherwise 409 `invalid_state`.',
      walletLedger.confirmDeposit,
    ],
    ['expire', 'expireDeposit', 'Expire a deposit (operator)', 'Only a pending deposit: otherwise 409 `invalid_state`.', walletLedger.expireDeposit],
  ] as const) {
    fastify.post(
      `/deposits/:deposit_id/${verb}`,
      {
        config: OPERATOR_ONLY,
        schema: {
          tags: WALLET_TAGS,
          operationId,
          summary,
          description: `${description} Agent-signed requests are refused (403 \`operator_token_required\`). ${IDEMPOTENCY_NOTE}`,
          security: SECURITY.operator,
          params: DepositParams,
          body: KeyOnlyBody,
          response: { 200: Deposit, ...MUTATION_ERRORS },
        },
      },
      async (request, reply) => {
        const res = await call(
          { agentId: request.params.agent_id, depositId: request.params.deposit_id, idempotencyKey: idempotencyKeyOf(request, true) },
          request.auth.callOptions,
        );
        markReplayed(reply, res.idempotentReplayed);
        return depositToJson(res.deposit);
      },
    );
  }
};

export default depositsRoutes;
