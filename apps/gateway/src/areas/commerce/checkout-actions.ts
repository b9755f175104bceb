import { commerceV1Wire } from '@exchange/proto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, signerOf } from '../../lib/acting-agent';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import { ApprovalBody, CancelCheckoutBody, CheckoutSession, CompleteCheckoutBody, CompletedCheckout, SessionParams } from './checkout.schemas';
import { BUYER_NOTE, MANDATE_CHECK_NOTE, MERCHANT_MUTATION_ERRORS, MERCHANT_NOTE, TAGS } from './commerce-kit';
import { jsonText, purchaseToJson, sessionToJson } from './commerce.mapper';

// Checkout outcomes (DESIGN §4 Commerce): complete (hold → merchant complete → settlement),
// cancel, and the mandate signer's step-up approval. Full paths.

const completeRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { commerce } = fastify;

  fastify.post(
    '/v1/commerce/ucp/checkout/:commerce_session_id/complete',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'completeCheckout',
        summary: 'Complete a checkout: pay the merchant',
        description:
          'Holds the total on the buyer’s wallet (the session’s currency), completes at the merchant, then settles the hold to the ' +
          'merchant and records a purchase (`deal_id`, exchange-signed receipt); a merchant failure releases the hold ' +
          '(`failure_reason`). Refused: 409 `approval_required` while the mandate signer’s approval is pending, 403 ' +
          '`approval_denied`, 409 `checkout_not_ready` unless the merchant says `ready_for_complete`, 400 `totals_mismatch` when ' +
          'its totals do not add up, 409 `insufficient_funds`; shadow sessions never complete. ' +
          BUYER_NOTE + ' ' + MANDATE_CHECK_NOTE + ' ' + MERCHANT_NOTE + ' ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: SessionParams,
        body: CompleteCheckoutBody,
        response: { 200: CompletedCheckout, ...MERCHANT_MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await commerce.completeCheckout(
        {
          actor: actorOf(request),
          commerceSessionId: request.params.commerce_session_id,
          paymentJson: jsonText(b.payment),
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return { session: sessionToJson(res.session), ...(res.purchase ? { purchase: purchaseToJson(res.purchase) } : {}) };
    },
  );

  fastify.post(
    '/v1/commerce/ucp/checkout/:commerce_session_id/cancel',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'cancelCheckout',
        summary: 'Cancel a checkout session',
        description: 'Cancels it at the merchant (UCP cancel) and releases anything reserved. ' + BUYER_NOTE + ' ' + MERCHANT_NOTE + ' ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: SessionParams,
        body: CancelCheckoutBody,
        response: { 200: CheckoutSession, ...MERCHANT_MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await commerce.cancelCheckout(
        { actor: actorOf(request), commerceSessionId: request.params.commerce_session_id, idempotencyKey: marketKeyOf(request) },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return sessionToJson(res.session);
    },
  );

  fastify.post(
    '/v1/commerce/ucp/checkout/:commerce_session_id/approval',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'submitCheckoutApproval',
        summary: 'Approve or deny a checkout (step-up)',
        description:
          'The mandate signer’s decision on a session whose `approval` is `pending`. `approver_id` must be the acting agent (403 ' +
          '`acting_agent_mismatch`) and the mandate’s signer (403 `not_mandate_signer`); `signature` is base64 ed25519 by ' +
          '`approver_id` over canonical JSON {commerce_session_id, decision, approver_id, total, currency} (400 ' +
          '`approval_signature_invalid`). Not pending: 409 `approval_not_pending`. Unknown session 404 `checkout_session_not_found`.',
        security: SECURITY.operator_or_agent,
        params: SessionParams,
        body: ApprovalBody,
        response: { 200: CheckoutSession, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const b = request.body;
      const approver = signerOf(b.approver_id, request.auth.actingAgentId, 'approver_id');
      const res = await commerce.submitApproval(
        {
          actor: actorOf(request),
          commerceSessionId: request.params.commerce_session_id,
          decision: commerceV1Wire.approvalDecision.toProto(b.decision),
          approverId: approver,
          signature: b.signature,
        },
        request.auth.callOptions,
      );
      return sessionToJson(res.session);
    },
  );
};

export default completeRoutes;
