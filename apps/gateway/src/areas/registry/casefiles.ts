import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { problem } from '../../plugins/app/problem';
import { problemResponses, SECURITY } from '../../schemas/common';
import { AttestationExportBody, AttestationQueryBody, CasefileExportBody, CasefileVerdict, CasefileVerifyBody, DocketExport, ReceiptsExportBody } from './attestations.schemas';
import { ObjectPage } from './registry.schemas';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { MUTATION_ERRORS } from './objects';
import { docketToJson, objectToJson, verdictToJson } from './registry.mapper';

// Attestations, receipt bundles and casefiles (issue 5): dockets built and signed by the registry
// with the exchange key; verification against this exchange's key (or a given one). Registered
// with prefix /v1.

const TAGS = ['Attestations, receipts and casefiles'];
const DOCKET_NOTE =
  'Answers {docket, archive_base64}: the docket signed by the exchange key (ed25519 over canonical JSON of the docket ' +
  'without `signature`; the key is `exchange_pubkey`, also on /health) and the .tar.gz archive (`docket.json` + ' +
  '`payloads/<sha256 hex>`). Verify offline: `npx exchange casefile verify <file.tar.gz> --exchange-key <base64>`.';

const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/** Bodies as large as the biggest archive in base64 (25 MiB of content plus the docket). */
const VERIFY_BODY_LIMIT = 40 * 1024 * 1024;

const casefilesRoutes: FastifyPluginAsyncTypebox<{ verifyLimiter: (request: FastifyRequest) => Promise<void> }> = async (fastify, opts) => {
  const { registry } = fastify;

  fastify.post(
    '/attestations/query',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'queryAttestations',
        summary: 'Query attestations',
        description:
          'Attestations are objects of type `attestation` whose payload has `subject_ref` and `claim`. Filters `subject_ref`, ' +
          '`signer_agent_id`, `from` (inclusive) and `to` (exclusive) on created_at; cursor pagination; only what the caller ' +
          'may see (`public` ones to any authenticated agent; no credentials → 401).',
        security: SECURITY.operator_or_agent,
        body: AttestationQueryBody,
        response: { 200: ObjectPage, ...problemResponses(400, 401, 403, 413, 415, 429, 503, 504) },
      },
    },
    async (request) => {
      const b = request.body;
      const res = await registry.queryAttestations(
        { subjectRef: b.subject_ref, signerAgentId: b.signer_agent_id, from: date(b.from), to: date(b.to), page: pageFromQuery(b) },
        request.auth.callOptions,
      );
      return { data: res.attestations.map(objectToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.post(
    '/attestations/export',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'exportAttestations',
        summary: 'Export attestations as a casefile docket',
        description: `The attestations matching the filters (those the caller may see) as \`attestation\` entries. ${DOCKET_NOTE}`,
        security: SECURITY.operator_or_agent,
        body: AttestationExportBody,
        response: { 200: DocketExport, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const b = request.body;
      const res = await registry.exportAttestations(
        { subjectRef: b.subject_ref, signerAgentId: b.signer_agent_id, from: date(b.from), to: date(b.to) },
        request.auth.callOptions,
      );
      return docketToJson(res.docket);
    },
  );

  fastify.post(
    '/receipts/export',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'exportReceipts',
        summary: 'Export settlement receipts as a casefile',
        description:
          '`receipt_ids` or `contract_id` (exactly one; else 400 `validation_failed`): `receipt` entries carrying each receipt ' +
          'as GET /v1/receipts/{receipt_id} shows it. Only the payer, the payee or the operator (403). Errors: 404 ' +
          `\`receipt_not_found\`. ${DOCKET_NOTE}`,
        security: SECURITY.operator_or_agent,
        body: ReceiptsExportBody,
        response: { 200: DocketExport, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const b = request.body;
      if ((b.receipt_ids === undefined) === (b.contract_id === undefined)) {
        throw problem(400, 'validation_failed', 'send exactly one of receipt_ids and contract_id', {
          errors: [{ pointer: '', message: 'exactly one of receipt_ids, contract_id is required' }],
        });
      }
      const res = await registry.exportReceipts({ receiptIds: b.receipt_ids ?? [], contractId: b.contract_id }, request.auth.callOptions);
      return docketToJson(res.docket);
    },
  );

  fastify.post(
    '/casefiles/export',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'exportCasefile',
        summary: 'Export a casefile docket',
        description:
          'Subject: `contract_id` (the contract, its offers, results, verification reports, disputes and receipts, the ' +
          'artifacts its results reference or linked to it, their delivery receipts and acks; only its parties or the ' +
          'operator: 403 `not_contract_party`), and/or `object_ids` and `artifact_refs` (each readable by the caller; 403 ' +
          '`access_denied`). Records carry `content` and the hex sha256 of its canonical JSON; artifacts carry sha256, ' +
          'media_type and size_bytes, and their bytes go into the archive with `include_payloads`. ' +
          DOCKET_NOTE,
        security: SECURITY.operator_or_agent,
        body: CasefileExportBody,
        response: { 200: DocketExport, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const { subject, include_payloads } = request.body;
      if (subject.contract_id === undefined && !subject.object_ids?.length && !subject.artifact_refs?.length) {
        throw problem(400, 'validation_failed', 'the subject needs contract_id, object_ids or artifact_refs', {
          errors: [{ pointer: '/subject', message: 'needs at least one of contract_id, object_ids, artifact_refs' }],
        });
      }
      const res = await registry.exportCasefile(
        {
          subject: { contractId: subject.contract_id, objectIds: subject.object_ids ?? [], artifactRefs: subject.artifact_refs ?? [] },
          includePayloads: include_payloads ?? false,
        },
        request.auth.callOptions,
      );
      return docketToJson(res.docket);
    },
  );

  fastify.post(
    '/casefiles/verify',
    {
      config: { auth: 'optional' },
      bodyLimit: VERIFY_BODY_LIMIT,
      // Before the body is read: anonymous callers have their own per-IP budget.
      onRequest: opts.verifyLimiter,
      schema: {
        tags: TAGS,
        operationId: 'verifyCasefile',
        summary: 'Verify a casefile docket',
        description:
          'Exactly one of `docket` (JSON) and `archive_base64` (.tar.gz). Checks: `docket` (shape), `signature` (against ' +
          'this exchange’s key unless `exchange_public_key` is given), one per entry (records: the hash of `content`; ' +
          'artifacts: the hash of the payload when the archive has it, else ok with reason "payload not included") and ' +
          'archive files the docket does not list (not ok). Always 200 with `valid` for a readable input; an unreadable ' +
          'archive is 400 `casefile_unreadable`; one past a reading limit (inflating beyond 128 MiB, or more than 20 times ' +
          'its compressed size past 16 MiB; more than 10 000 members; docket.json over 32 MiB) is 413 `payload_too_large`. Public (no credentials needed); anonymous calls ' +
          'share a per-IP budget with POST /ui/casefile/verify (429 `rate_limited` with Retry-After).',
        security: SECURITY.optional,
        body: CasefileVerifyBody,
        response: { 200: CasefileVerdict, ...problemResponses(400, 413, 415, 429, 503, 504) },
      },
    },
    async (request) => {
      const b = request.body;
      if (typeof b !== 'object' || b === null) {
        throw problem(400, 'validation_failed', 'the body is missing: send {docket} or {archive_base64}', { errors: [{ pointer: '', message: 'a body is required' }] });
      }
      const archive = b.archive_base64;
      if ((b.docket === undefined) === (archive === undefined)) {
        throw problem(400, 'validation_failed', 'send exactly one of docket and archive_base64', {
          errors: [{ pointer: '', message: 'exactly one of docket, archive_base64 is required' }],
        });
      }
      const res = await registry.verifyCasefile(
        archive === undefined
          ? { input: { $case: 'docketJson', value: JSON.stringify(b.docket) }, exchangePublicKey: b.exchange_public_key }
          : { input: { $case: 'archive', value: Buffer.from(archive, 'base64') }, exchangePublicKey: b.exchange_public_key },
        request.auth.callOptions,
      );
      return verdictToJson(res);
    },
  );
};

export default casefilesRoutes;
