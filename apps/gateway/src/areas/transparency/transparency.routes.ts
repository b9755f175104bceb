import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../lib/acting-agent';
import { pageFromQuery } from '../../lib/pagination';
import { AGENT_OR_OPERATOR, OPERATOR_ONLY, READ_ERRORS, SECURITY } from '../../lib/route-kit';
import { monthlyRollupToJson, sessionTransparencyToJson, shadowCompareToJson, spendSavingsToJson, timelineToJson } from './transparency.mapper';
import {
  MonthlyRollup,
  MonthlyRollupQuery,
  PurchaseTimeline,
  SessionTransparency,
  ShadowCompare,
  ShadowCompareQuery,
  SpendSavingsPage,
  SpendSavingsQuery,
  TimelineParams,
  TransparencySessionParams,
} from './transparency.schemas';

// Commerce transparency (DESIGN §4 Commerce) over CommerceService: what autonomy would have done
// (shadow compare), the operator's rollups and per-session record, and a purchase's timeline.
// Reads only; commerce decides who may read what (it gets the Actor). Full paths.

const TAGS = ['Commerce transparency'];
const OPERATOR_NOTE = 'Operator only (an agent-signed request is 403 `operator_token_required`).';
const WINDOW_ERRORS = '`window` not a month `YYYY-MM` → 400 `invalid_window`.';

const transparencyRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { commerce } = fastify;

  fastify.get(
    '/v1/commerce/shadow/compare',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'compareShadowSessions',
        summary: 'Compare shadow sessions with live ones',
        description:
          'For each shadow session created in [`from`, `to`) (oldest first): the live session of the same buyer, merchant and cart ' +
          '(`cart_key`) created closest in time in the window, and every field that differs (status, approval, currency, total, list_total, ' +
          'savings, discount_codes, unavailable_items). `summary` covers the whole window and filters. The operator sees every buyer ' +
          '(`buyer_agent_id` filters); an agent sees its own sessions only (another `buyer_agent_id` → 403 `acting_agent_mismatch`). ' +
          'Window: default the 30 days before `to` (default now); reversed or over 366 days → 400 `invalid_window`. Cursor pagination.',
        security: SECURITY.operator_or_agent,
        querystring: ShadowCompareQuery,
        response: { 200: ShadowCompare, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await commerce.compareShadow(
        {
          actor: actorOf(request),
          from: q.from === undefined ? undefined : new Date(q.from),
          to: q.to === undefined ? undefined : new Date(q.to),
          merchantDomain: q.merchant_domain,
          buyerAgentId: q.buyer_agent_id,
          page: pageFromQuery(q),
        },
        request.auth.callOptions,
      );
      return shadowCompareToJson(res);
    },
  );

  fastify.get(
    '/v1/commerce/transparency/rollups/monthly',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'getMonthlyCommerceRollup',
        summary: 'Monthly commerce rollup per currency',
        description:
          'Per currency, exact to the micro-unit: spend and savings of purchases completed in the UTC month, escalations (sessions whose ' +
          'approval was requested), approvals denied, return/refund/chargeback cases opened, and what approved cases credited back in the month. ' +
          `${WINDOW_ERRORS} ${OPERATOR_NOTE}`,
        security: SECURITY.operator,
        querystring: MonthlyRollupQuery,
        response: { 200: MonthlyRollup, ...READ_ERRORS },
      },
    },
    async (request) => monthlyRollupToJson(await commerce.getMonthlyRollup({ actor: actorOf(request), window: request.query.window }, request.auth.callOptions)),
  );

  fastify.get(
    '/v1/commerce/transparency/rollups/spend-savings',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'getCommerceSpendSavings',
        summary: 'Spend and savings per buyer agent',
        description:
          'Per buyer agent and currency: spend, savings and purchases completed in `window` (absent: all time), refunded in it, and ' +
          '`net_spend` = spend − refunded. Filters `agent_id`, `currency`; by agent id then currency, cursor pagination. ' +
          `${WINDOW_ERRORS} ${OPERATOR_NOTE}`,
        security: SECURITY.operator,
        querystring: SpendSavingsQuery,
        response: { 200: SpendSavingsPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await commerce.getSpendSavingsRollup(
        { actor: actorOf(request), window: q.window, agentId: q.agent_id, currency: q.currency, page: pageFromQuery(q) },
        request.auth.callOptions,
      );
      return spendSavingsToJson(res);
    },
  );

  fastify.get(
    '/v1/commerce/transparency/purchases/:commerce_session_id',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'getCheckoutTransparency',
        summary: 'A checkout session’s full record',
        description:
          'The session, its lifecycle (every state change in order, each `from` the previous `to`), references to its evidence (hashes, ' +
          'no content), whether the chain verifies, its purchase, intent and post-purchase case ids. Unknown session 404 ' +
          `\`checkout_session_not_found\`. ${OPERATOR_NOTE}`,
        security: SECURITY.operator,
        params: TransparencySessionParams,
        response: { 200: SessionTransparency, ...READ_ERRORS },
      },
    },
    async (request) =>
      sessionTransparencyToJson(
        await commerce.getSessionTransparency({ actor: actorOf(request), commerceSessionId: request.params.commerce_session_id }, request.auth.callOptions),
      ),
  );

  fastify.get(
    '/v1/purchases/:deal_id/timeline',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getPurchaseTimeline',
        summary: 'A purchase’s timeline',
        description:
          'Every state change of the purchase’s session, the merchant’s order webhooks, the settlement receipt, the events of its ' +
          'post-purchase cases and its feedback, oldest first (ties in a stable order). The purchase’s buyer or the operator ' +
          '(others 403 `not_deal_buyer`); unknown deal 404 `purchase_not_found`.',
        security: SECURITY.operator_or_agent,
        params: TimelineParams,
        response: { 200: PurchaseTimeline, ...READ_ERRORS },
      },
    },
    async (request) => timelineToJson(await commerce.getPurchaseTimeline({ actor: actorOf(request), dealId: request.params.deal_id }, request.auth.callOptions)),
  );
};

export default transparencyRoutes;
