import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { problem } from '../../plugins/app/problem';
import { problemResponses, SECURITY } from '../../schemas/common';
import { Ack, AckBody, Artifact, ArtifactEnvelope, DeliveryReceiptPage, ReasonBody, UploadArtifactBody } from './artifacts.schemas';
import { ArtifactParams, PageQuery } from './registry.schemas';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { ArtifactUploader, requireUploadContentType } from './artifact-upload';
import { signerOf } from '../../lib/acting-agent';
import { ACCESS_NOTE, MUTATION_ERRORS, READ_ERRORS } from './objects';
import { ackToJson, artifactToJson, deliveryReceiptToJson, envelopeToJson } from './registry.mapper';

// Artifacts (issue 5): bytes streamed to the registry (JSON base64 or multipart, ≤ 25 MiB of
// content; staged there until committed once authenticated, artifact-upload.ts), streamed back on download, with policy, envelope, acks, delivery receipts and
// takedowns. Registered with prefix /v1.

const TAGS = ['Artifacts'];
/** Base64 text of the largest content, plus room for the other fields. */
const jsonBodyLimit = (maxBytes: number) => Math.ceil(maxBytes / 3) * 4 + 256 * 1024;

const artifactsRoutes: FastifyPluginAsyncTypebox<{ maxBytes: number }> = async (fastify, opts) => {
  const { registry } = fastify;
  const maxBytes = opts.maxBytes;
  // Multipart parsing in this plugin only (the rest of the gateway accepts JSON alone); the file
  // part is read as a stream, never buffered whole.
  await fastify.register(multipart, {
    limits: { files: 1, fields: 200, fieldSize: 64 * 1024, fileSize: maxBytes + 1, parts: 201 },
    throwFileSizeLimit: false,
  });

  const uploader = new ArtifactUploader(fastify, maxBytes);

  fastify.post(
    '/artifacts',
    {
      config: { auth: 'operator_or_agent', streamedBodySignature: true },
      bodyLimit: jsonBodyLimit(maxBytes),
      onRequest: async (request) => requireUploadContentType(request),
      schema: {
        tags: TAGS,
        operationId: 'uploadArtifact',
        summary: 'Upload an artifact',
        description:
          'JSON (`content_base64` + metadata) or `multipart/form-data` (the form fields first, then one part `file`; ' +
          '`parties` and `recipient_key_ids` repeated or as JSON arrays, `envelope` as JSON text or flattened as ' +
          '`algorithm`/`recipient_key_ids`/`nonce`). At most 25 MiB of content (413 `payload_too_large`); empty content is ' +
          '400. `artifact_ref` is the sha256 of the bytes, but access, parties, contract and uploader are per upload: bytes another ' +
          'agent already uploaded are your own upload (201, your metadata only); the same bytes again from you for the same ' +
          '`contract_id` (or none) answer 200 with your earlier upload. `contract_id` must exist ' +
          '(404 `contract_not_found`) and the uploader must be its buyer or awarded seller (403 `not_contract_party`) unless ' +
          'an operator uploads. An agent signs multipart bodies like any other: sha256 of the raw body bytes. Nothing is ' +
          'stored or visible before the request is authenticated (a refused signature leaves nothing behind). No body or ' +
          'no Content-Type is 400 `validation_failed`; a multipart body that cannot be parsed is 400 `malformed_multipart`.',
        security: SECURITY.operator_or_agent,
        body: {
          content: {
            'application/json': { schema: UploadArtifactBody },
            'multipart/form-data': {
              schema: Type.Object({}, { additionalProperties: true, description: 'Form fields as in the JSON body, then the `file` part' }),
            },
          },
        } as never,
        response: { 201: Artifact, 200: Artifact, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = request.isMultipart() ? await uploader.multipart(request) : await uploader.json(request, request.body);
      const artifact = artifactToJson(res.artifact);
      return reply.code(res.created ? 201 : 200).header('location', `/v1/artifacts/${artifact.artifact_ref}`).send(artifact);
    },
  );

  fastify.get(
    '/artifacts/:artifact_ref',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'downloadArtifact',
        summary: 'Download an artifact’s bytes',
        description:
          `The bytes with \`Content-Type\` = media_type, \`Content-Length\`, \`ETag\` "sha256:…" and \`X-Artifact-Ref\`. When the ` +
          `same bytes were uploaded several times, the upload read is your own, else one you are a party of, else a public one. A removed ` +
          `artifact is 451 \`artifact_removed\` (the reason in \`detail\`). A download by an acting agent writes an ` +
          `exchange-signed delivery receipt. ${ACCESS_NOTE} Errors: 404 \`artifact_not_found\`.`,
        security: SECURITY.operator_or_agent,
        params: ArtifactParams,
        response: {
          200: Type.Unsafe({ description: 'The artifact bytes', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }),
          ...problemResponses(400, 401, 403, 404, 429, 451, 503, 504),
        },
      },
    },
    async (request, reply) => {
      const download = await registry.downloadArtifact({ artifactRef: request.params.artifact_ref }, request.auth.callOptions);
      const a = download.artifact;
      reply
        .header('content-type', a.mediaType)
        .header('content-length', String(a.sizeBytes))
        .header('etag', `"${a.artifactRef}"`)
        .header('x-artifact-ref', a.artifactRef);
      // A client gone before the last byte: stop the registry stream too.
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) download.cancel();
      });
      return reply.send(readableOf(download.chunks));
    },
  );

  fastify.get(
    '/artifacts/:artifact_ref/envelope',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'getArtifactEnvelope',
        summary: 'Read an artifact’s encryption envelope',
        description: `Same access rule as the content. Errors: 404 \`artifact_not_found\`, 404 \`envelope_not_found\` when it has none. ${ACCESS_NOTE}`,
        security: SECURITY.operator_or_agent,
        params: ArtifactParams,
        response: { 200: ArtifactEnvelope, ...problemResponses(400, 401, 403, 404, 429, 451, 503, 504) },
      },
    },
    async (request) => {
      const res = await registry.getArtifactEnvelope({ artifactRef: request.params.artifact_ref }, request.auth.callOptions);
      const envelope = envelopeToJson(res.envelope);
      if (!envelope) throw problem(404, 'envelope_not_found', `artifact ${request.params.artifact_ref} has no envelope`);
      return { artifact_ref: res.artifactRef, envelope };
    },
  );

  fastify.post(
    '/artifacts/:artifact_ref/acks',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'ackArtifact',
        summary: 'Acknowledge an artifact',
        description:
          '`signature`: base64 ed25519 by `agent_id` (default: the acting agent; another is 403 `acting_agent_mismatch`) over ' +
          'canonical JSON of {artifact_ref, agent_id} (else 400 `ack_signature_invalid`). The agent must have access (403 ' +
          '`access_denied`). 201 with the ack, 200 with the first ack when acked before. Errors: 404 `artifact_not_found`.',
        security: SECURITY.operator_or_agent,
        params: ArtifactParams,
        body: AckBody,
        response: { 201: Ack, 200: Ack, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const agentId = signerOf(request.body.agent_id, request.auth.actingAgentId, 'agent_id');
      const res = await registry.ackArtifact(
        { artifactRef: request.params.artifact_ref, agentId, signature: request.body.signature },
        request.auth.callOptions,
      );
      return reply.code(res.created ? 201 : 200).send(ackToJson(res.ack));
    },
  );

  fastify.get(
    '/artifacts/:artifact_ref/receipts',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'listDeliveryReceipts',
        summary: 'List an artifact’s delivery receipts',
        description:
          'Oldest first; cursor pagination. Each is signed by the exchange key over canonical JSON of the other fields ' +
          '(`delivered_at` RFC 3339). The receipts of the uploads you are the uploader or a party of (the operator: all; else 403 `access_denied`). ' +
          'Errors: 404 `artifact_not_found`.',
        security: SECURITY.operator_or_agent,
        params: ArtifactParams,
        querystring: PageQuery,
        response: { 200: DeliveryReceiptPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await registry.listDeliveryReceipts({ artifactRef: request.params.artifact_ref, page: pageFromQuery(request.query) }, request.auth.callOptions);
      return { data: res.receipts.map(deliveryReceiptToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  for (const action of ['takedown', 'reinstate'] as const) {
    fastify.post(
      `/artifacts/:artifact_ref/${action}`,
      {
        config: { auth: 'operator', frozenCheck: false },
        schema: {
          tags: TAGS,
          operationId: action === 'takedown' ? 'takedownArtifact' : 'reinstateArtifact',
          summary: action === 'takedown' ? 'Take an artifact down (operator)' : 'Reinstate a removed artifact (operator)',
          description:
            (action === 'takedown'
              ? 'Removes the content for every upload of these bytes: downloads then answer 451 `artifact_removed` with the reason; metadata stays readable. '
              : 'The content is downloadable again. ') +
            'Audited (operator, reason, time) and published as an event. ' +
            (action === 'takedown' ? 'An artifact already removed' : 'An active artifact') +
            ' is 409 `invalid_state`. Errors: 404 `artifact_not_found`.',
          security: SECURITY.operator,
          params: ArtifactParams,
          body: ReasonBody,
          response: { 200: Artifact, ...MUTATION_ERRORS },
        },
      },
      async (request) => {
        const req = { artifactRef: request.params.artifact_ref, reason: request.body.reason };
        const res = action === 'takedown'
          ? await registry.takedownArtifact(req, request.auth.callOptions)
          : await registry.reinstateArtifact(req, request.auth.callOptions);
        return artifactToJson(res.artifact);
      },
    );
  }
};

const readableOf = (chunks: AsyncIterable<Buffer>) => Readable.from(chunks, { objectMode: false });

export default artifactsRoutes;
