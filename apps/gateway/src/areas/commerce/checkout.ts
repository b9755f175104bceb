import { commerceV1Wire } from '@exchange/proto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, signerOf } from '../../lib/acting-agent';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, replayed, SECURITY } from '../../lib/route-kit';
import { CheckoutSession, CreateCheckoutBody, SessionParams, SessionQuery, UpdateCheckoutBody } from './checkout.schemas';
import { BUYER_NOTE, MANDATE_CHECK_NOTE, MERCHANT_MUTATION_ERRORS, MERCHANT_NOTE, MERCHANT_READ_ERRORS, READER_NOTE, TAGS } from './commerce-kit';
import { jsonText, originFromJson, sessionToJson } from './commerce.mapper';

// Checkout sessions (DESIGN §4 Commerce): create, read and update the exchange's mirror of a
// merchant's UCP checkout. UCP objects travel to commerce as JSON text. Full paths.

const checkoutRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { commerce } = fastify;

  fastify.post(
    '/v1/commerce/ucp/checkout/create',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createCheckout',
        summary: 'Create a checkout session at a merchant',
        description:
          'Creates the merchant’s UCP checkout (`POST /checkout-sessions`) for `buyer_agent_id` under `mandate_id`; the session ' +
          'mirrors its status, totals and messages. `buyer_agent_id` defaults to the acting agent; another agent is 403 ' +
          '`acting_agent_mismatch`. `origin` names the contract or workflow run the checkout comes from (exactly one; checked ' +
          'before the merchant is called: 403 `origin_not_allowed`, 404 `contract_not_found` / `workflow_run_not_found`). ' + MANDATE_CHECK_NOTE + ' ' + MERCHANT_NOTE + ' ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateCheckoutBody,
        response: { 201: CheckoutSession, ...MERCHANT_MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const buyer = signerOf(b.buyer_agent_id, request.auth.actingAgentId, 'buyer_agent_id');
      const res = await commerce.createCheckout(
        {
          actor: actorOf(request),
          buyerAgentId: buyer,
          mandateId: b.mandate_id,
          merchantDomain: b.merchant_domain,
          lineItemsJson: JSON.stringify(b.line_items),
          buyerJson: jsonText(b.buyer),
          contextJson: jsonText(b.context),
          discountCodes: b.discount_codes ?? [],
          mode: commerceV1Wire.sessionMode.toProto(b.mode ?? 'live'),
          idempotencyKey: marketKeyOf(request),
          intentId: b.intent_id,
          origin: originFromJson(b.origin),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      const session = sessionToJson(res.session);
      return reply.code(201).header('location', `/v1/commerce/ucp/checkout/${session.commerce_session_id}`).send(session);
    },
  );

  fastify.get(
    '/v1/commerce/ucp/checkout/:commerce_session_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getCheckout',
        summary: 'Read a checkout session',
        description: `${READER_NOTE} \`refresh=true\` reads the merchant’s session again first (then merchant errors apply: ${MERCHANT_NOTE})`,
        security: SECURITY.operator_or_agent,
        params: SessionParams,
        querystring: SessionQuery,
        response: { 200: CheckoutSession, ...MERCHANT_READ_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.getCheckout(
        { actor: actorOf(request), commerceSessionId: request.params.commerce_session_id, refresh: request.query.refresh ?? false },
        request.auth.callOptions,
      );
      return sessionToJson(res.session);
    },
  );

  fastify.post(
    '/v1/commerce/ucp/checkout/:commerce_session_id/update',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'updateCheckout',
        summary: 'Update the cart and options of a checkout',
        description:
          'Sends the merchant the full resource (UCP update is a replacement); absent fields keep their value, `discount_codes` ' +
          '(even empty) replaces the codes. ' +
          BUYER_NOTE + ' ' + MANDATE_CHECK_NOTE + ' ' + MERCHANT_NOTE + ' ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: SessionParams,
        body: UpdateCheckoutBody,
        response: { 200: CheckoutSession, ...MERCHANT_MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await commerce.updateCheckout(
        {
          actor: actorOf(request),
          commerceSessionId: request.params.commerce_session_id,
          lineItemsJson: jsonText(b.line_items),
          buyerJson: jsonText(b.buyer),
          contextJson: jsonText(b.context),
          discountCodes: b.discount_codes === undefined ? undefined : { codes: b.discount_codes },
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return sessionToJson(res.session);
    },
  );
};

export default checkoutRoutes;
