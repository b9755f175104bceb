import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateVerifierListingBody, RegisterVerifierBody, SubmitVerificationBody, VerificationMetrics, VerificationReport, Verifier, VerifierListing, VerifierListingPage, VerifierPage } from './verification.schemas';
import { ContractParams, ListVerifierListingsQuery, ListVerifiersQuery, VerificationMetricsQuery } from '../../lib/market/market.schemas';
import { verdictFromJson, windowFromJson } from '../../lib/market/market.enums';
import { metricsToJson, reportToJson, verifierListingToJson, verifierToJson } from '../../lib/market/market.mapper';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { partyFromJson } from '../../lib/acting-agent';
import {
  AGENT_OR_OPERATOR,
  IDEMPOTENCY_NOTE,
  marketKeyOf,
  MUTATION_ERRORS,
  PARTY_ERRORS,
  READ_ERRORS,
  replayed,
  SECURITY,
} from '../../lib/route-kit';

// The Verification area (spec §4 Verification): verifier profiles and listings, signed reports
// on delivered results, and the metrics. GET /v1/contracts/{id}/verification lives with the
// Contracts routes (tagged for both). Registered with prefix /v1.

const TAGS = ['Verification'];

const verificationRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { market } = fastify;

  fastify.post(
    '/verifiers',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'registerVerifier',
        summary: 'Register a verifier agent profile',
        description: 'Errors: 409 `verifier_exists` (this agent has a profile already). ' + PARTY_ERRORS + ' ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: RegisterVerifierBody,
        response: { 201: Verifier, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await market.registerVerifier(
        {
          verifierId: partyFromJson(b.verifier_id),
          name: b.name,
          description: b.description ?? '',
          tags: b.tags ?? [],
          fee: b.fee ? { amount: b.fee.amount, currency: b.fee.currency } : undefined,
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(verifierToJson(res.verifier));
    },
  );

  fastify.get(
    '/verifiers',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listVerifiers',
        summary: 'List verifiers',
        description: 'Cursor pagination (`limit`, `cursor` → `next_cursor`).',
        security: SECURITY.operator_or_agent,
        querystring: ListVerifiersQuery,
        response: { 200: VerifierPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await market.listVerifiers({ page: pageFromQuery(request.query) }, request.auth.callOptions);
      return { data: res.verifiers.map(verifierToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.post(
    '/verifier-listings',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createVerifierListing',
        summary: 'Create a verifier service listing',
        description:
          'Errors: 404 `verifier_not_found` (register the profile first), 400 `invalid_turnaround`, `invalid_amount`. ' +
          PARTY_ERRORS +
          ' ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateVerifierListingBody,
        response: { 201: VerifierListing, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await market.createVerifierListing(
        {
          verifierId: partyFromJson(b.verifier_id),
          title: b.title,
          tags: b.tags ?? [],
          price: { amount: b.price.amount, currency: b.price.currency },
          turnaround: b.turnaround,
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(verifierListingToJson(res.verifierListing));
    },
  );

  fastify.get(
    '/verifier-listings',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listVerifierListings',
        summary: 'List verifier listings',
        description: 'Filter `verifier_id`; cursor pagination.',
        security: SECURITY.operator_or_agent,
        querystring: ListVerifierListingsQuery,
        response: { 200: VerifierListingPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await market.listVerifierListings({ page: pageFromQuery(q), verifierId: q.verifier_id }, request.auth.callOptions);
      return { data: res.verifierListings.map(verifierListingToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.post(
    '/contracts/:contract_id/verify',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'submitVerification',
        summary: 'Submit a signed verification report',
        description:
          'The signer is the contract’s verifier (mode `verifier`) or its buyer (mode `buyer`); anyone else 403 ' +
          '`not_contract_verifier`; mode `auto` 409 `invalid_state`. The contract must be delivered and `result_id` its latest ' +
          'submitted result (404 `result_not_found`, 409 `invalid_state`). `signature`: see the field (400 ' +
          '`report_signature_invalid`); `score` 0-1 (400 `invalid_score`). Pass: the result is accepted and the contract settles ' +
          '(seller paid, fee kept); fail: the result is rejected and the contract goes back to awarded. Errors: 404 ' +
          '`contract_not_found`. ' +
          PARTY_ERRORS +
          ' ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        body: SubmitVerificationBody,
        response: { 201: VerificationReport, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await market.submitVerification(
        {
          contractId: request.params.contract_id,
          verifierId: partyFromJson(b.verifier_id),
          resultId: b.result_id,
          verdict: verdictFromJson(b.verdict),
          score: b.score,
          checks: (b.checks ?? []).map((c) => ({ name: c.name, ok: c.ok, detail: c.detail })),
          signature: b.signature,
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(reportToJson(res.report));
    },
  );

  fastify.get(
    '/telemetry/verification',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getVerificationMetrics',
        summary: 'Verification metrics',
        description:
          '`window` all (default), 1h, 1d or 7d over report creation time: reports, passed, failed, pass_rate (null without ' +
          'reports) and the median latency from result to report in ms (null without reports).',
        security: SECURITY.operator_or_agent,
        querystring: VerificationMetricsQuery,
        response: { 200: VerificationMetrics, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await market.getVerificationMetrics({ window: windowFromJson(request.query.window) }, request.auth.callOptions);
      return metricsToJson(res);
    },
  );
};

export default verificationRoutes;
