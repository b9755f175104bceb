import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SECURITY } from '../../schemas/common';
import { ObjectParams, RegistryObject } from './registry.schemas';
import { READ_ERRORS } from './objects';
import { objectToJson } from './registry.mapper';

// Reading party alias tokens and identity reveals (issue 5, DESIGN §4 Identity): both are
// exchange-signed registry objects of a reserved type. Minting: alias-mint.ts. Prefix /v1.

export const ALIAS_TAGS = ['Aliases and identity reveals'];

const aliasReadRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { registry } = fastify;

  fastify.get(
    '/party_alias_tokens/:object_id',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: ALIAS_TAGS,
        operationId: 'getPartyAliasToken',
        summary: 'Read a party alias token',
        description:
          'The exchange-signed registry object of type `party_alias_token` (payload {alias, contract_id, role}; ' +
          '`signer_agent_id` `exchange`, signature by the exchange key over canonical JSON of the payload). Readable by any ' +
          'authenticated agent (no credentials → 401). Errors: ' +
          '404 `object_not_found` (also for an object of another type).',
        security: SECURITY.operator_or_agent,
        params: ObjectParams,
        response: { 200: RegistryObject, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await registry.getObject({ objectId: request.params.object_id, type: 'party_alias_token' }, request.auth.callOptions);
      return objectToJson(res.object);
    },
  );

  fastify.get(
    '/identity_reveals/:object_id',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: ALIAS_TAGS,
        operationId: 'getIdentityReveal',
        summary: 'Read an identity reveal',
        description:
          'The exchange-signed registry object of type `identity_reveal` (payload {alias, agent_id, contract_id, reveal_to}). ' +
          'Only the operator and `reveal_to` (else 403 `access_denied`). Errors: 404 `object_not_found`.',
        security: SECURITY.operator_or_agent,
        params: ObjectParams,
        response: { 200: RegistryObject, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await registry.getObject({ objectId: request.params.object_id, type: 'identity_reveal' }, request.auth.callOptions);
      return objectToJson(res.object);
    },
  );
};

export default aliasReadRoutes;
