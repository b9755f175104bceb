import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConsumeHoldBody, CreateHoldBody, Hold } from './funds.schemas';
import { HoldParams, KeyOnlyBody, WalletParams } from './wallets.schemas';
import { markReplayed } from '../../lib/idempotency';
import { IDEMPOTENCY_NOTE, idempotencyKeyOf, MUTATION_ERRORS, OWNER_OR_OPERATOR, SECURITY, WALLET_TAGS } from './route-kit';
import { holdToJson } from './wallet.mapper';

// Holds (two-phase transfers): create (available → held), release (held → available),
// consume (held → another agent, the rest released). Active is the only state that moves.

const holdsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;

  fastify.post(
    '/holds',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'createHold',
        summary: 'Create a hold (reserve available funds)',
        description:
          'Moves `amount` from available to held. `expires_at` must be in the future (400 `invalid_expires_at`); an expired ' +
          'hold is released by the sweeper. Errors: 409 `insufficient_funds`. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: WalletParams,
        body: CreateHoldBody,
        response: { 201: Hold, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const res = await walletLedger.createHold(
        {
          agentId: request.params.agent_id,
          amount: body.amount,
          currency: body.currency,
          expiresAt: body.expires_at === undefined ? undefined : new Date(body.expires_at),
          reference: body.reference,
          idempotencyKey: idempotencyKeyOf(request, true),
        },
        request.auth.callOptions,
      );
      markReplayed(reply, res.idempotentReplayed);
      return reply.code(201).send(holdToJson(res.hold));
    },
  );

  fastify.post(
    '/holds/:hold_id/release',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'releaseHold',
        summary: 'Release a hold (funds back to available)',
        description:
          'Only an active hold: otherwise 409 `invalid_state` with `current` and `wanted`. A contract\'s escrow is the market\'s: ' +
          '403 `hold_controlled_by_market`, for the agent and the operator alike. The body may be omitted when the ' +
          '`Idempotency-Key` header is sent. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: HoldParams,
        body: KeyOnlyBody,
        response: { 200: Hold, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await walletLedger.releaseHold(
        { agentId: request.params.agent_id, holdId: request.params.hold_id, idempotencyKey: idempotencyKeyOf(request, true) },
        request.auth.callOptions,
      );
      markReplayed(reply, res.idempotentReplayed);
      return holdToJson(res.hold);
    },
  );

  fastify.post(
    '/holds/:hold_id/consume',
    {
      config: OWNER_OR_OPERATOR,
      schema: {
        tags: WALLET_TAGS,
        operationId: 'consumeHold',
        summary: 'Consume a hold (transfer the held funds)',
        description:
          'Pays `amount` (default: all) of the held funds to `to_agent_id` and releases the rest. Errors: 400 ' +
          '`amount_exceeds_hold`, 409 `invalid_state` (not active), 404 `agent_not_found`, 403 `hold_controlled_by_market` (a ' +
          'contract\'s escrow: only its lifecycle moves it). ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: HoldParams,
        body: ConsumeHoldBody,
        response: { 200: Hold, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const res = await walletLedger.consumeHold(
        {
          agentId: request.params.agent_id,
          holdId: request.params.hold_id,
          toAgentId: body.to_agent_id,
          amount: body.amount,
          idempotencyKey: idempotencyKeyOf(request, true),
        },
        request.auth.callOptions,
      );
      markReplayed(reply, res.idempotentReplayed);
      return holdToJson(res.hold);
    },
  );
};

export default holdsRoutes;
