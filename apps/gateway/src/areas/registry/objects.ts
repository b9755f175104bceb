import { canonicalize } from '@exchange/crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signerOf } from '../../lib/acting-agent';
import { problemResponses, SECURITY } from '../../schemas/common';
import { ListObjectsQuery, ObjectPage, ObjectParams, RegistryObject, StoreObjectBody } from './registry.schemas';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { objectToJson, visibilityFromJson } from './registry.mapper';

// Registry objects (issue 5): signed, content-addressed JSON objects with a visibility. Registered
// with prefix /v1.

const TAGS = ['Registry objects'];
export const READ_ERRORS = problemResponses(400, 401, 403, 404, 429, 503, 504);
export const MUTATION_ERRORS = problemResponses(400, 401, 403, 404, 409, 413, 415, 429, 503, 504);
export const ACCESS_NOTE =
  'Access: credentials required (no credentials → 401); `public` resources are readable by any authenticated agent; an operator token without `X-Agent-Id` sees everything; any request ' +
  'with an acting agent (agent-signed, or the operator token with `X-Agent-Id`) sees what that agent may see (`parties`: the ' +
  'signer/uploader, the listed parties and the buyer and awarded seller of the linked contract). Refused: 403 `access_denied`.';

const objectsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { registry } = fastify;

  fastify.post(
    '/objects',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'storeObject',
        summary: 'Store a signed object',
        description:
          '`signature` is base64 ed25519 over canonical JSON (legacy v1) of `payload` by an unrevoked key of `signer_agent_id` ' +
          '(defaults to the acting agent; another agent is 403 `acting_agent_mismatch`); else 400 `object_signature_invalid`. ' +
          '`object_id` = `sha256:` + hex sha256 of canonical JSON of {type, payload, signer_agent_id}: storing the same object ' +
          'again answers 200 with the stored one. Types `party_alias_token` and `identity_reveal` are reserved (403 ' +
          '`reserved_type`). Errors: 404 `agent_not_found`, 403 `agent_frozen`.',
        security: SECURITY.operator_or_agent,
        body: StoreObjectBody,
        response: { 201: RegistryObject, 200: RegistryObject, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const signer = signerOf(b.signer_agent_id, request.auth.actingAgentId, 'signer_agent_id');
      const res = await registry.storeObject(
        {
          type: b.type,
          payloadJson: canonicalize(b.payload === undefined ? null : b.payload),
          signerAgentId: signer,
          signature: b.signature,
          visibility: visibilityFromJson(b.visibility, 'public'),
          parties: b.parties ?? [],
          tags: b.tags ?? [],
        },
        request.auth.callOptions,
      );
      const object = objectToJson(res.object);
      return reply
        .code(res.created ? 201 : 200)
        .header('location', `/v1/objects/${object.object_id}`)
        .send(object);
    },
  );

  fastify.get(
    '/objects/:object_id',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'getObject',
        summary: 'Read an object',
        description: `${ACCESS_NOTE} Errors: 404 \`object_not_found\`.`,
        security: SECURITY.operator_or_agent,
        params: ObjectParams,
        response: { 200: RegistryObject, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await registry.getObject({ objectId: request.params.object_id }, request.auth.callOptions);
      return objectToJson(res.object);
    },
  );

  fastify.get(
    '/objects',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: TAGS,
        operationId: 'listObjects',
        summary: 'List objects',
        description: `Newest first; filters \`type\` and \`tag\`; cursor pagination. Lists only what the caller may see. ${ACCESS_NOTE}`,
        security: SECURITY.operator_or_agent,
        querystring: ListObjectsQuery,
        response: { 200: ObjectPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await registry.listObjects({ page: pageFromQuery(q), type: q.type, tag: q.tag }, request.auth.callOptions);
      return { data: res.objects.map(objectToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );
};

export default objectsRoutes;
