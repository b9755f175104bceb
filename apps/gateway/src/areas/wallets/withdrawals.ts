import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateWithdrawalBody, Withdrawal } from './payments.schemas';
import { KeyOnlyBody, WalletParams, WithdrawalParams } from './wallets.schemas';
import { markReplayed } from '../../lib/idempotency';
import { IDEMPOTENCY_NOTE, idempotencyKeyOf, MUTATION_ERRORS, OWNER_OR_OPERATOR, READ_ERRORS, SECURITY, UNKNOWN_WALLET_NOTE, WALLET_TAGS } from './route-kit';
import { withdrawalToJson } from './wallet.mapper';

// Withdrawals: requested (funds held) → processing → completed | failed (refunded); the owner
// may cancel while requested. A payout processor moves them along (simulated in sandbox).

const withdrawalsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;

  fastify.post(
    '/withdrawals',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'createWithdrawal',
        summary: 'Create a withdrawal request',
        description:
          'Needs identity level MAINNET_ATTESTED or higher (403 `identity_level_insufficient` with `required` and `current`). ' +
          'Daily limit per currency (UTC day): ATTESTED 1000, VERIFIED 100000, INSTITUTIONAL per policy; beyond it 403 ' +
          '`withdrawal_limit_exceeded` with `limit`, `used_today`, `resets_at`. Errors: 409 `insufficient_funds`, 404 ' +
          '`payout_destination_not_found`, 503 `kill_switch:withdrawals`. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: WalletParams,
        body: CreateWithdrawalBody,
        response: { 201: Withdrawal, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const res = await walletLedger.createWithdrawal(
        {
          agentId: request.params.agent_id,
          amount: body.amount,
          currency: body.currency,
          payoutDestinationId: body.payout_destination_id,
          idempotencyKey: idempotencyKeyOf(request, true),
        },
        request.auth.callOptions,
      );
      markReplayed(reply, res.idempotentReplayed);
      return reply.code(201).send(withdrawalToJson(res.withdrawal));
    },
  );

  fastify.get(
    '/withdrawals/:withdrawal_id',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'getWithdrawal',
        summary: 'Withdrawal status',
        description: UNKNOWN_WALLET_NOTE,
        security: SECURITY.operator_or_agent,
        params: WithdrawalParams,
        response: { 200: Withdrawal, ...READ_ERRORS },
      },
    },
    async (request) =>
      withdrawalToJson(
        (await walletLedger.getWithdrawal({ agentId: request.params.agent_id, withdrawalId: request.params.withdrawal_id }, request.auth.callOptions))
          .withdrawal,
      ),
  );

  fastify.post(
    '/withdrawals/:withdrawal_id/cancel',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'cancelWithdrawal',
        summary: 'Cancel a withdrawal (funds back to available)',
        description: 'Only while `requested`: otherwise 409 `invalid_state` with `current` and `wanted`. ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: WithdrawalParams,
        body: KeyOnlyBody,
        response: { 200: Withdrawal, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await walletLedger.cancelWithdrawal(
        { agentId: request.params.agent_id, withdrawalId: request.params.withdrawal_id, idempotencyKey: idempotencyKeyOf(request, true) },
        request.auth.callOptions,
      );
      markReplayed(reply, res.idempotentReplayed);
      return withdrawalToJson(res.withdrawal);
    },
  );
};

export default withdrawalsRoutes;
