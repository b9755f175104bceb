import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Contract } from '../contracts/contracts.schemas';
import { Offer, OfferPage, SubmitOfferBody } from './offers.schemas';
import { AwardParams, ContractParams, KeyOnlyMarketBody, ListOffersQuery, OfferParams } from '../../lib/market/market.schemas';
import { offerStatusFilter } from '../../lib/market/market.enums';
import { contractToJson, offerToJson } from '../../lib/market/market.mapper';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { partyFromJson } from '../../lib/acting-agent';
import {
  AGENT_OR_OPERATOR,
  IDEMPOTENCY_NOTE,
  marketKeyOf,
  MUTATION_ERRORS,
  OPERATOR_ONLY,
  PARTY_ERRORS,
  READ_ERRORS,
  replayed,
  SECURITY,
  STATE_NOTE,
} from '../../lib/route-kit';

// The Offers area (spec §4 Offers): sellers' offers on open contracts, withdrawal, and the
// operator's award (escrow hold on the buyer's wallet). Registered with prefix /v1.

const TAGS = ['Offers'];

const offersRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { market } = fastify;

  fastify.post(
    '/contracts/:contract_id/offers',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'submitOffer',
        summary: 'Submit an offer on an open contract',
        description:
          'Errors: 400 `invalid_eta` (not in the future, or after the contract deadline: `deadline` names it), `currency_mismatch`, `price_exceeds_budget`; 403 `self_dealing` (the ' +
          'buyer), `conflict_of_interest` (the contract’s verifier); 409 `offer_exists` (this seller has a submitted offer ' +
          'already), `invalid_state` (the contract is not open); 404 `contract_not_found`. ' +
          PARTY_ERRORS +
          ' ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        body: SubmitOfferBody,
        response: { 201: Offer, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await market.submitOffer(
        {
          contractId: request.params.contract_id,
          sellerId: partyFromJson(b.seller_id),
          price: { amount: b.price.amount, currency: b.price.currency },
          eta: new Date(b.eta),
          terms: b.terms ?? '',
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(offerToJson(res.offer));
    },
  );

  fastify.get(
    '/contracts/:contract_id/offers',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listOffers',
        summary: 'List the offers of a contract',
        description: 'Filters `seller_id`, `status`; cursor pagination. Errors: 404 `contract_not_found`.',
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        querystring: ListOffersQuery,
        response: { 200: OfferPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await market.listOffers(
        { contractId: request.params.contract_id, page: pageFromQuery(q), sellerId: q.seller_id, status: offerStatusFilter(q.status) },
        request.auth.callOptions,
      );
      return { data: res.offers.map(offerToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/offers/:offer_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getOffer',
        summary: 'Read an offer',
        description: 'Errors: 404 `offer_not_found`.',
        security: SECURITY.operator_or_agent,
        params: OfferParams,
        response: { 200: Offer, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await market.getOffer({ offerId: request.params.offer_id }, request.auth.callOptions);
      return offerToJson(res.offer);
    },
  );

  fastify.post(
    '/offers/:offer_id/withdraw',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'withdrawOffer',
        summary: 'Withdraw a submitted offer',
        description:
          'By the offer’s seller or an operator (else 403 `not_offer_seller`); only a submitted offer (else 409 `invalid_state`). ' +
          'Errors: 404 `offer_not_found`. The body may be omitted. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: OfferParams,
        body: KeyOnlyMarketBody,
        response: { 200: Offer, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await market.withdrawOffer({ offerId: request.params.offer_id, idempotencyKey: marketKeyOf(request) }, request.auth.callOptions);
      replayed(reply, res);
      return offerToJson(res.offer);
    },
  );

  fastify.post(
    '/contracts/:contract_id/award/:offer_id',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'awardOffer',
        summary: 'Award an offer (operator)',
        description:
          'Holds the offer’s price on the buyer’s wallet (escrow), marks the contract awarded and the offer awarded, and rejects ' +
          'the other submitted offers. Errors: 409 `insufficient_funds` (the buyer cannot cover the price; nothing changes), ' +
          '`invalid_state` (contract not open, or an award in progress); 404 `contract_not_found`, `offer_not_found` (unknown, ' +
          'not submitted or of another contract); 503 `wallet_unavailable` (the hold’s outcome is unknown; it completes on its ' +
          'own — retry with the same key). ' +
          STATE_NOTE +
          ' The body may be omitted. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator,
        params: AwardParams,
        body: KeyOnlyMarketBody,
        response: { 200: Contract, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await market.awardOffer(
        { contractId: request.params.contract_id, offerId: request.params.offer_id, idempotencyKey: marketKeyOf(request) },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return contractToJson(res.contract);
    },
  );
};

export default offersRoutes;
