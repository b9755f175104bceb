import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AGENT_OR_OPERATOR } from '../../lib/route-kit';
import { problemResponses, SECURITY } from '../../schemas/common';
import { MERCHANT_READ_ERRORS, NEGOTIATE_ERRORS, TAGS } from './commerce-kit';
import { merchantProfileToJson, negotiationToJson, platformProfileToJson } from './commerce.mapper';
import { MerchantParams, MerchantProfile, MerchantProfileQuery, Negotiation, NegotiateBody } from './profile.schemas';

// UCP discovery (DESIGN §4 Commerce): the exchange's own platform profile at /.well-known/ucp,
// merchants' business profiles, and platform-side capability negotiation. Full paths.

/** UCP: profiles are public and cacheable (max-age ≥ 60 s); commerce builds ours. */
const PROFILE_CACHE_CONTROL = 'public, max-age=300';

const discoveryRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { commerce } = fastify;

  fastify.get(
    '/.well-known/ucp',
    {
      config: { auth: 'public' },
      schema: {
        tags: TAGS,
        operationId: 'getPlatformProfile',
        summary: 'The exchange’s UCP platform profile',
        description:
          'The UCP 2026-04-08 platform profile merchants fetch to learn who is calling (`UCP-Agent: profile="…"` on every ' +
          'merchant request): its capabilities, the order `webhook_url` and its signing keys. Public; `Cache-Control: public, max-age=300`.',
        security: SECURITY.public,
        response: {
          200: Type.Object({}, { additionalProperties: true, description: 'UCP platform profile', examples: [{ ucp: { version: '2026-04-08', capabilities: {} }, signing_keys: [] }] }),
          ...problemResponses(429, 503, 504),
        },
      },
    },
    async (request, reply) => {
      const res = await commerce.getPlatformProfile({}, request.auth.callOptions);
      return reply.header('cache-control', PROFILE_CACHE_CONTROL).send(platformProfileToJson(res));
    },
  );

  fastify.get(
    '/v1/commerce/ucp/merchants/:merchant_domain/profile',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getMerchantProfile',
        summary: 'Fetch a merchant’s UCP business profile',
        description:
          'From `https://{merchant_domain}/.well-known/ucp` (HTTPS only, no redirects), validated against the UCP schema and cached ' +
          '(at least 60 s; `refresh=true` fetches again). Errors: 400 `invalid_merchant_domain`, 422 `profile_malformed` ' +
          '(`errors[]`), 424 `profile_unreachable` (`reason`).',
        security: SECURITY.operator_or_agent,
        params: MerchantParams,
        querystring: MerchantProfileQuery,
        response: { 200: MerchantProfile, ...MERCHANT_READ_ERRORS },
      },
    },
    async (request) => {
      const res = await commerce.getMerchantProfile(
        { merchantDomain: request.params.merchant_domain, refresh: request.query.refresh ?? false },
        request.auth.callOptions,
      );
      return merchantProfileToJson(res);
    },
  );

  fastify.post(
    '/v1/commerce/ucp/negotiate',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'negotiateCapabilities',
        summary: 'Negotiate UCP capabilities with a merchant',
        description:
          'Runs UCP’s server-selects algorithm platform-side: the intersection of capability names, the highest common version ' +
          'of each, orphan extensions pruned until stable. Answers 200 whenever the merchant’s profile was read: ' +
          '`capabilities_incompatible` and `version_unsupported` are results (with UCP `messages`), not errors. Errors: 400 ' +
          '`invalid_merchant_domain`, 422 `profile_malformed`, 424 `profile_unreachable`.',
        security: SECURITY.operator_or_agent,
        body: NegotiateBody,
        response: { 200: Negotiation, ...NEGOTIATE_ERRORS },
      },
    },
    async (request) => {
      const b = request.body;
      const res = await commerce.negotiate({ merchantDomain: b.merchant_domain, capabilities: b.capabilities ?? [] }, request.auth.callOptions);
      return negotiationToJson(res);
    },
  );
};

export default discoveryRoutes;
