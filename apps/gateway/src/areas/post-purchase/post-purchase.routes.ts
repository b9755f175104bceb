import { commerceV1Wire } from '@exchange/proto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../lib/acting-agent';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import { caseEventToJson, caseToJson, caseUpdateToJson } from './post-purchase.mapper';
import { CaseEventPage, CaseEventsQuery, CaseParams, CaseUpdate, CreateCaseBody, PostPurchaseCase, UpdateCaseBody } from './post-purchase.schemas';

// Post-purchase cases (DESIGN §4 Commerce) over CommerceService: the buyer of a deal opens a
// return, refund or chargeback case; the operator reviews, approves or denies, then closes it;
// an approval credits the buyer through wallet-ledger once. Commerce checks who may do what (it
// gets the Actor). Full paths.

const TAGS = ['Post-purchase'];
const READERS = 'The deal’s buyer or the operator; another agent gets 403 `not_deal_buyer`; an unknown case 404 `case_not_found`.';

const postPurchaseRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { commerce } = fastify;

  fastify.post(
    '/v1/post-purchase/cases',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createPostPurchaseCase',
        summary: 'Open a post-purchase case',
        description:
          'The acting agent must be the deal’s buyer (else 403 `not_deal_buyer`, the operator included); unknown deal 404 `purchase_not_found`. ' +
          '`amount` defaults to what remains refundable (paid − already refunded); more than that is 409 `refund_exceeds_paid`. ' +
          'Errors: 400 `validation_failed`, `invalid_amount`; 422 `idempotency_key_reused`. ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateCaseBody,
        response: { 201: PostPurchaseCase, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await commerce.createCase(
        {
          actor: actorOf(request),
          dealId: b.deal_id,
          type: commerceV1Wire.caseType.toProto(b.type),
          reason: b.reason,
          amount: b.amount,
          evidenceRefs: b.evidence_refs ?? [],
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      const c = caseToJson(res.case);
      return reply.code(201).header('location', `/v1/post-purchase/cases/${c.case_id}`).send(c);
    },
  );

  fastify.get(
    '/v1/post-purchase/cases/:case_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getPostPurchaseCase',
        summary: 'Read a post-purchase case',
        description: READERS,
        security: SECURITY.operator_or_agent,
        params: CaseParams,
        response: { 200: PostPurchaseCase, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.getCase({ actor: actorOf(request), caseId: request.params.case_id }, request.auth.callOptions);
      return caseToJson(res.case);
    },
  );

  fastify.post(
    '/v1/post-purchase/cases/:case_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'updatePostPurchaseCase',
        summary: 'Move a case or add evidence',
        description:
          '`status` is the operator’s (the buyer: 403 `operator_required`): open → under_review → approved | denied → closed; any other move ' +
          '(the current status included) is 409 `invalid_state` with `current` and `wanted`. `evidence_refs` (the buyer or the operator) are ' +
          'added until the case is decided (after: 409 `invalid_state`, wanted `add_evidence`). A status or evidence is required (400). ' +
          'Approving adds the amount to the purchase’s refunded total — more than was paid is 409 `refund_exceeds_paid` and nothing changes — ' +
          'then credits the buyer through wallet-ledger once (`refund_receipt` in the answer; if the ledger did not answer, `refund_state` ' +
          'stays `pending` and the credit is made later). ' + READERS,
        security: SECURITY.operator_or_agent,
        params: CaseParams,
        body: UpdateCaseBody,
        response: { 200: CaseUpdate, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const b = request.body;
      const res = await commerce.updateCase(
        {
          actor: actorOf(request),
          caseId: request.params.case_id,
          status: b.status === undefined ? undefined : commerceV1Wire.caseStatus.toProto(b.status),
          addEvidenceRefs: b.evidence_refs ?? [],
          note: b.note,
        },
        request.auth.callOptions,
      );
      return caseUpdateToJson(res);
    },
  );

  fastify.get(
    '/v1/post-purchase/cases/:case_id/events',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listPostPurchaseCaseEvents',
        summary: 'List a case’s events',
        description:
          'Oldest first (`seq`): `opened`, `status_changed`, `evidence_added`, `refund_credited` (amount and refund receipt id) and ' +
          '`refund_refused` (the ledger refused the credit for good; `note` says why). Cursor pagination. ' + READERS,
        security: SECURITY.operator_or_agent,
        params: CaseParams,
        querystring: CaseEventsQuery,
        response: { 200: CaseEventPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.listCaseEvents({ actor: actorOf(request), caseId: request.params.case_id, page: pageFromQuery(request.query) }, request.auth.callOptions);
      return { data: res.events.map(caseEventToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );
};

export default postPurchaseRoutes;
