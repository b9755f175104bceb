import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../lib/acting-agent';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import { DiscountBody, DiscountResult, SessionParams } from './checkout.schemas';
import { BUYER_NOTE, MERCHANT_MUTATION_ERRORS, MERCHANT_NOTE, READER_NOTE, TAGS } from './commerce-kit';
import { casefileVerdictToJson, docketToJson, evidenceToJson, jsonText, sessionToJson } from './commerce.mapper';
import { ArtifactsQuery, CasefileExportBody, CasefileVerifyBody, CheckoutCasefileVerdict, CheckoutDocket, EvidencePage } from './evidence.schemas';

// A checkout's evidence (DESIGN §4 Commerce): the hash-chained merchant messages, discount
// evidence, and the casefile docket signed over them. Full paths.

const evidenceRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { commerce } = fastify;

  fastify.get(
    '/v1/commerce/ucp/checkout/:commerce_session_id/artifacts',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listCheckoutArtifacts',
        summary: 'Read a checkout’s evidence',
        description:
          'Every request and response exchanged with the merchant (and order webhooks, approvals, mandate checks), in chain order, ' +
          'each hash-chained to the previous one; `chain_valid` says whether the whole chain recomputes. Cursor pagination. ' + READER_NOTE,
        security: SECURITY.operator_or_agent,
        params: SessionParams,
        querystring: ArtifactsQuery,
        response: { 200: EvidencePage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.listArtifacts(
        { actor: actorOf(request), commerceSessionId: request.params.commerce_session_id, page: pageFromQuery(request.query) },
        request.auth.callOptions,
      );
      return { items: res.items.map(evidenceToJson), next_cursor: nextCursorToJson(res.page), chain_valid: res.chainValid };
    },
  );

  fastify.post(
    '/v1/commerce/ucp/checkout/:commerce_session_id/discount',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'applyCheckoutDiscount',
        summary: 'Apply discount codes and record the evidence',
        description:
          'Sends the codes to the merchant (UCP update with `discounts.codes`, replacing earlier codes) and answers which it ' +
          'applied and which it refused (its UCP message code); `savings` = `list_total` − `total`. ' +
          BUYER_NOTE + ' ' + MERCHANT_NOTE + ' ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: SessionParams,
        body: DiscountBody,
        response: { 200: DiscountResult, ...MERCHANT_MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await commerce.applyDiscount(
        { actor: actorOf(request), commerceSessionId: request.params.commerce_session_id, codes: request.body.codes, idempotencyKey: marketKeyOf(request) },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return {
        session: sessionToJson(res.session),
        applied: [...res.applied],
        rejected: res.rejected.map((r) => ({ code: r.code, reason: r.reason })),
      };
    },
  );

  fastify.post(
    '/v1/commerce/ucp/checkout/:commerce_session_id/casefile/export',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'exportCheckoutCasefile',
        summary: 'Export the checkout’s casefile docket',
        description:
          'The docket of the session (evidence chain, mandate, approval, purchase and receipt), signed by the exchange key (the ' +
          'one /health publishes). ' + READER_NOTE,
        security: SECURITY.operator_or_agent,
        params: SessionParams,
        body: CasefileExportBody,
        response: { 200: CheckoutDocket, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.exportCasefile({ actor: actorOf(request), commerceSessionId: request.params.commerce_session_id }, request.auth.callOptions);
      return docketToJson(res);
    },
  );

  fastify.post(
    '/v1/commerce/ucp/checkout/:commerce_session_id/casefile/verify',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'verifyCheckoutCasefile',
        summary: 'Verify the checkout’s casefile docket',
        description:
          'Verifies `docket` (default: the session’s docket exported now) against the exchange key or `exchange_public_key`: the ' +
          'signature, the evidence chain and each item; `checks[]` says which failed and why. ' + READER_NOTE,
        security: SECURITY.operator_or_agent,
        params: SessionParams,
        body: CasefileVerifyBody,
        response: { 200: CheckoutCasefileVerdict, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const b = request.body;
      const res = await commerce.verifyCasefile(
        {
          actor: actorOf(request),
          commerceSessionId: request.params.commerce_session_id,
          docketJson: jsonText(b.docket),
          exchangePublicKey: b.exchange_public_key,
        },
        request.auth.callOptions,
      );
      return casefileVerdictToJson(res);
    },
  );
};

export default evidenceRoutes;
