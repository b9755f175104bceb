import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, signerOf } from '../../lib/acting-agent';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import { feedbackToJson, intentToJson } from './intents.mapper';
import { CreateIntentBody, Feedback, Intent, RecordFeedbackBody } from './intents.schemas';

// Commerce intents and purchase feedback (DESIGN §4 Commerce) over CommerceService. Commerce
// checks who may do what (it gets the Actor); full paths.

const TAGS = ['Commerce intents'];

const commerceIntentsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { commerce } = fastify;

  fastify.post(
    '/v1/commerce/intents/create',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createCommerceIntent',
        summary: 'Create a commerce intent',
        description:
          'What `agent_id` set out to buy (AP2 IntentMandate): a description, allowed `merchants` and `skus` (empty: any), a `budget` ' +
          'bounding each checkout session, `requires_refundability`, and `expires_at`. A checkout naming it with `intent_id` is ' +
          'refused outside it on create, update and complete (403 `not_intent_agent`, `intent_expired`, `intent_merchant_not_allowed`, ' +
          '`intent_sku_not_allowed`, `intent_currency_mismatch`, `intent_budget_exceeded`, `intent_refundability_unmet`; unknown 404 ' +
          '`intent_not_found`). The agent itself or the operator creates it (else 403 `acting_agent_mismatch`). Errors: 400 ' +
          '`validation_failed`, `invalid_amount`, `unsupported_currency`, `invalid_merchant_domain`; 403 `agent_frozen`; 404 ' +
          '`agent_not_found`; 422 `idempotency_key_reused`. ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateIntentBody,
        response: { 201: Intent, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await commerce.createIntent(
        {
          actor: actorOf(request),
          agentId: signerOf(b.agent_id, request.auth.actingAgentId, 'agent_id'),
          description: b.description,
          merchants: b.merchants ?? [],
          skus: b.skus ?? [],
          budget: { amount: b.budget.amount, currency: b.budget.currency },
          requiresRefundability: b.requires_refundability ?? false,
          expiresAt: new Date(b.expires_at),
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(intentToJson(res.intent));
    },
  );

  fastify.post(
    '/v1/commerce/feedback/record',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'recordPurchaseFeedback',
        summary: 'Rate a purchase',
        description:
          'The purchase’s buyer rates it once: `rating` 1-5, `comment` at most 2000 characters. Another agent or the operator: 403 ' +
          '`not_deal_buyer`; unknown deal 404 `purchase_not_found`; a second feedback 409 `feedback_exists`; 400 `validation_failed`.',
        security: SECURITY.operator_or_agent,
        body: RecordFeedbackBody,
        response: { 201: Feedback, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await commerce.recordFeedback(
        { actor: actorOf(request), dealId: b.deal_id, rating: b.rating, comment: b.comment ?? '' },
        request.auth.callOptions,
      );
      return reply.code(201).send(feedbackToJson(res.feedback));
    },
  );
};

export default commerceIntentsRoutes;
