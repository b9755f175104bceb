import { commerceV1Wire } from '@exchange/proto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, signerOf } from '../../lib/acting-agent';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import { autonomyFromJson, autonomyToJson, mandateToJson } from './mandates.mapper';
import { AutonomyBody, CreateMandateBody, ListMandatesQuery, Mandate, MandateAutonomy, MandatePage, MandateParams, MandateStatusBody } from './mandates.schemas';

// Spending mandates (DESIGN §4 Commerce) over CommerceService: a signer lets an agent buy within
// a scope and limits until a date, with autonomy settings deciding when the signer must approve.
// Commerce checks who may read or change what (it gets the Actor). Registered with prefix /v1.

const TAGS = ['Mandates'];
const READERS = 'The signer, the agent it was granted to, or the operator; anyone else gets 404 `mandate_not_found`, as for an unknown id.';

const mandatesRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { commerce } = fastify;

  fastify.post(
    '/mandates',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createMandate',
        summary: 'Create a spending mandate',
        description:
          '`signer_agent_id` grants `agent_id` the right to buy within `scope` (empty lists: any) and `limits` until `expires_at`; ' +
          'it must be the acting agent (403 `acting_agent_mismatch`) and sign the canonical mandate (400 ' +
          '`mandate_signature_invalid`). Errors: 400 `validation_failed`, `invalid_amount`, `unsupported_currency`, ' +
          '`invalid_merchant_domain`; 403 `agent_frozen`; 404 `agent_not_found`; 422 `idempotency_key_reused`. ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateMandateBody,
        response: { 201: Mandate, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await commerce.createMandate(
        {
          actor: actorOf(request),
          signerAgentId: signerOf(b.signer_agent_id, request.auth.actingAgentId, 'signer_agent_id'),
          agentId: b.agent_id,
          scopeMerchants: b.scope.merchants,
          scopeCategories: b.scope.categories,
          scopeSkus: b.scope.skus,
          perTransaction: b.limits.per_transaction,
          totalLimit: b.limits.total,
          currency: b.limits.currency,
          expiresAt: new Date(b.expires_at),
          signature: b.signature,
          autonomy: b.autonomy === undefined ? undefined : autonomyFromJson(b.autonomy),
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      const mandate = mandateToJson(res.mandate);
      return reply.code(201).header('location', `/v1/mandates/${mandate.mandate_id}`).send(mandate);
    },
  );

  fastify.get(
    '/mandates',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listMandates',
        summary: 'List mandates',
        description: 'Newest first; filters `signer_agent_id`, `status`; cursor pagination. An agent sees the mandates it signed or was granted; the operator sees all.',
        security: SECURITY.operator_or_agent,
        querystring: ListMandatesQuery,
        response: { 200: MandatePage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await commerce.listMandates(
        {
          actor: actorOf(request),
          signerAgentId: q.signer_agent_id,
          status: q.status === undefined ? undefined : commerceV1Wire.mandateStatus.toProto(q.status),
          page: pageFromQuery(q),
        },
        request.auth.callOptions,
      );
      return { data: res.mandates.map(mandateToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/mandates/:mandate_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getMandate',
        summary: 'Read a mandate',
        description: READERS,
        security: SECURITY.operator_or_agent,
        params: MandateParams,
        response: { 200: Mandate, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.getMandate({ actor: actorOf(request), mandateId: request.params.mandate_id }, request.auth.callOptions);
      return mandateToJson(res.mandate);
    },
  );

  fastify.get(
    '/mandates/:mandate_id/autonomy',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getMandateAutonomy',
        summary: 'Read a mandate’s autonomy settings',
        description: 'The mode, the step-up threshold, whether new merchants need approval, and the daily limit. ' + READERS,
        security: SECURITY.operator_or_agent,
        params: MandateParams,
        response: { 200: MandateAutonomy, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.getAutonomy({ actor: actorOf(request), mandateId: request.params.mandate_id }, request.auth.callOptions);
      return { mandate_id: res.mandateId, autonomy: autonomyToJson(res.autonomy) };
    },
  );

  fastify.put(
    '/mandates/:mandate_id/autonomy',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'putMandateAutonomy',
        summary: 'Replace a mandate’s autonomy settings',
        description:
          'Only the mandate’s signer (403 `not_mandate_signer`); the body is the whole autonomy object. Unknown 404 `mandate_not_found`; ' +
          'a revoked or expired mandate 403 `mandate_inactive`.',
        security: SECURITY.operator_or_agent,
        params: MandateParams,
        body: AutonomyBody,
        response: { 200: MandateAutonomy, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.putAutonomy(
        { actor: actorOf(request), mandateId: request.params.mandate_id, autonomy: autonomyFromJson(request.body) },
        request.auth.callOptions,
      );
      return { mandate_id: res.mandateId, autonomy: autonomyToJson(res.autonomy) };
    },
  );

  fastify.post(
    '/mandates/:mandate_id/status',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'setMandateStatus',
        summary: 'Pause, resume or revoke a mandate',
        description:
          '`paused` stops new spending until the signer sets `active` again; `revoked` is final. The signer may do all three, ' +
          'the operator pause or revoke (else 403 `not_mandate_signer`). From `revoked`, `expired` or `exhausted`: 409 ' +
          '`invalid_state`; the status it already has answers the mandate unchanged. A purchase already in flight finishes.',
        security: SECURITY.operator_or_agent,
        params: MandateParams,
        body: MandateStatusBody,
        response: { 200: Mandate, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.setMandateStatus(
        { actor: actorOf(request), mandateId: request.params.mandate_id, status: commerceV1Wire.mandateStatus.toProto(request.body.status) },
        request.auth.callOptions,
      );
      return mandateToJson(res.mandate);
    },
  );
};

export default mandatesRoutes;
