import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateListingBody, Listing, ListingPage } from './listings.schemas';
import { ListingParams, ListListingsQuery } from '../../lib/market/market.schemas';
import { listingToJson } from '../../lib/market/market.mapper';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { partyFromJson } from '../../lib/acting-agent';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, PARTY_ERRORS, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';

// The Listings area (spec §4 Listings): what sellers offer. No states. Registered with prefix /v1.

const TAGS = ['Listings'];

const listingsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { market } = fastify;

  fastify.post(
    '/listings',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createListing',
        summary: 'Create a seller listing',
        description: 'Errors: 400 `invalid_turnaround` (not an ISO 8601 duration), `invalid_amount`. ' + PARTY_ERRORS + ' ' + IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateListingBody,
        response: { 201: Listing, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await market.createListing(
        {
          sellerId: partyFromJson(b.seller_id),
          title: b.title,
          description: b.description ?? '',
          tags: b.tags ?? [],
          price: { amount: b.price.amount, currency: b.price.currency },
          turnaround: b.turnaround,
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(listingToJson(res.listing));
    },
  );

  fastify.get(
    '/listings',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listListings',
        summary: 'List listings',
        description: 'Filter `tag`; cursor pagination (`limit`, `cursor` → `next_cursor`).',
        security: SECURITY.operator_or_agent,
        querystring: ListListingsQuery,
        response: { 200: ListingPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await market.listListings({ page: pageFromQuery(q), tag: q.tag }, request.auth.callOptions);
      return { data: res.listings.map(listingToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/listings/:listing_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getListing',
        summary: 'Read a listing',
        description: 'Errors: 404 `listing_not_found`.',
        security: SECURITY.operator_or_agent,
        params: ListingParams,
        response: { 200: Listing, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await market.getListing({ listingId: request.params.listing_id }, request.auth.callOptions);
      return listingToJson(res.listing);
    },
  );
};

export default listingsRoutes;
