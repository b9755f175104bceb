import { identityV1Wire, marketV1 } from '@exchange/proto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problem } from '../../plugins/app/problem';
import { SECURITY } from '../../schemas/common';
import { AliasToken, MintAliasBody, MintRevealBody } from './aliases.schemas';
import { RegistryObject } from './registry.schemas';
import { ALIAS_TAGS } from './aliases';
import { MUTATION_ERRORS } from './objects';
import { objectToJson, parseJsonText } from './registry.mapper';

// Minting party alias tokens and identity reveals (issue 5, DESIGN §4 Identity). The gateway
// resolves which agent holds the role (market GetContract) and who may mint; identity keeps
// alias → agent private and stores the exchange-signed token in the registry. Prefix /v1.

/** The agent holding `role` in the contract; a seller exists only once the contract is awarded. */
export function roleAgent(contract: marketV1.Contract, role: 'buyer' | 'seller'): string {
  if (role === 'buyer') return contract.buyerId;
  if (!contract.sellerId) {
    throw problem(409, 'invalid_state', `contract ${contract.contractId} has no awarded seller yet`, { extras: { current: 'open', wanted: 'awarded' } });
  }
  return contract.sellerId;
}

const aliasMintRoutes: FastifyPluginAsyncTypebox<{ exchangePublicKey: string | null }> = async (fastify, opts) => {
  const { registry, market, identity } = fastify;

  fastify.post(
    '/party_alias_tokens/mint',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: ALIAS_TAGS,
        operationId: 'mintPartyAliasToken',
        summary: 'Mint a party alias token',
        description:
          'The alias (`anon:` + 12 base32 characters) of the agent holding `role` in the contract, as an exchange-signed token ' +
          '{alias, contract_id, role}; minted once per (contract, role, alias generation): 201, then 200 with the same token. For ' +
          '`buyer` it is always the current alias: after an operator rotation (`POST /v1/contracts/{id}/buyer-alias`) the new one. Only that agent ' +
          'or the operator (403 `not_contract_party`); `seller` needs an awarded contract (409 `invalid_state`). Errors: 404 ' +
          '`contract_not_found`.',
        security: SECURITY.operator_or_agent,
        body: MintAliasBody,
        response: { 201: AliasToken, 200: AliasToken, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const { contract_id, role } = request.body;
      const auth = request.auth;
      const { contract } = await market.getContract({ contractId: contract_id }, auth.callOptions);
      if (!contract) throw new Error('market answered without the contract');
      const agentId = roleAgent(contract, role);
      if (auth.actingAgentId !== null && auth.actingAgentId !== agentId) {
        throw problem(403, 'not_contract_party', `only the contract's ${role} or the operator may mint its alias`);
      }
      // The buyer's alias may have been rotated (POST …/buyer-alias): ask for the market's current
      // generation, else identity would hand back the first (stale) alias.
      const generation = role === 'buyer' ? contract.buyerAliasGeneration : undefined;
      const minted = await identity.mintPartyAlias({ contractId: contract_id, role: identityV1Wire.partyRole.toProto(role), agentId, generation }, auth.callOptions);
      // Identity signed it with the exchange key, which this gateway publishes on /health.
      return reply.code(minted.created ? 201 : 200).send({
        object_id: minted.objectId,
        alias: minted.alias,
        contract_id,
        role,
        payload: parseJsonText(minted.payloadJson, 'payload_json'),
        signature: minted.signature,
        signer_public_key: opts.exchangePublicKey ?? '',
      });
    },
  );

  fastify.post(
    '/identity_reveals/mint',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: ALIAS_TAGS,
        operationId: 'mintIdentityReveal',
        summary: 'Mint an identity reveal',
        description:
          'Reveals the agent behind `alias` to `reveal_to`: an exchange-signed object of type `identity_reveal` (payload ' +
          '{alias, agent_id, contract_id, reveal_to}, readable by `reveal_to` and the operator). Only the aliased agent or ' +
          'the operator (403 `not_contract_party`). 201, or 200 when minted before. Errors: 404 `alias_not_found`.',
        security: SECURITY.operator_or_agent,
        body: MintRevealBody,
        response: { 201: RegistryObject, 200: RegistryObject, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const auth = request.auth;
      const minted = await identity.mintIdentityReveal({ contractId: b.contract_id, alias: b.alias, revealTo: b.reveal_to }, auth.callOptions);
      // The aliased agent may mint but is not among the readers (parties = [reveal_to]): read back
      // as the gateway, the caller being entitled to what it has just minted.
      const { object } = await registry.getObject(
        { objectId: minted.objectId, type: 'identity_reveal' },
        { requestId: auth.callOptions.requestId, traceId: auth.callOptions.traceId, actor: 'operator:gateway' },
      );
      return reply.code(minted.created ? 201 : 200).send(objectToJson(object));
    },
  );
};

export default aliasMintRoutes;
