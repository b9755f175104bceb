import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../lib/acting-agent';
import { AGENT_OR_OPERATOR, OPERATOR_ONLY, READ_ERRORS, SECURITY } from '../../lib/route-kit';
import { TAGS } from './feeds.routes';
import { BytesToAtomsRollup, CoordinationRollup, MarketIntegrityRollup, OutcomeMetrics, OutcomesQuery, RollupQuery, WeeklyReport, WeeklyReportQuery } from './reports.schemas';
import { bytesToAtomsRollupToJson, coordinationRollupToJson, integrityRollupToJson, outcomesToJson, rollupQueryFromJson, weeklyReportToJson } from './telemetry.mapper';

// Telemetry's figures over TelemetryService: the weekly report and the three rollups (operator),
// and outcome metrics (any agent). Computed by telemetry from its event store. Full paths.

const WINDOW_NOTE =
  '`window` all, 1h, 1d, 7d (default) or 30d ending at `as_of` (default now; in the future: 400 `validation_failed`). ' +
  'Counts are integers, amounts per currency, rates 0–1 or null when there was nothing to divide by.';

const ROLLUPS = [
  {
    path: 'market-integrity',
    operationId: 'getMarketIntegrityRollup',
    summary: 'Market integrity rollup (operator)',
    description: 'Integrity state changes, kill switches, erroneous clears, disputes opened and resolved, refunds and splits, buyer alias updates, resale reviews, freezes, and the dispute rate.',
    response: MarketIntegrityRollup,
    call: 'getMarketIntegrityRollup',
    toJson: integrityRollupToJson,
  },
  {
    path: 'bytes-to-atoms',
    operationId: 'getBytesToAtomsRollup',
    summary: 'Bytes-to-atoms rollup (operator)',
    description: 'Commerce purchases that originate from contracts or workflow runs (the checkout’s `origin`): counts, volume per currency, the originated share and the merchants.',
    response: BytesToAtomsRollup,
    call: 'getBytesToAtomsRollup',
    toJson: bytesToAtomsRollupToJson,
  },
  {
    path: 'coordination',
    operationId: 'getCoordinationRollup',
    summary: 'Coordination rollup (operator)',
    description: 'Coordination threads and posts (contracts with threads, participants) and workflow runs, stages and tasks, with the median run duration.',
    response: CoordinationRollup,
    call: 'getCoordinationRollup',
    toJson: coordinationRollupToJson,
  },
] as const;

const reportsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { telemetry } = fastify;

  fastify.get(
    '/v1/telemetry/reports/weekly',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'getWeeklyReport',
        summary: 'Weekly report (operator)',
        description:
          'One UTC week (Monday to Monday): contract transitions, settled volume and median time to settle, agents registered, ' +
          'active buyers and sellers, checkouts and purchases, workflow runs, top tags, matching signals, events recorded. ' +
          '`week_start` a Monday `YYYY-MM-DD` (default the last complete week; else 400 `invalid_week_start`); sandbox activity ' +
          'only with `include_sandbox=true`.',
        security: SECURITY.operator,
        querystring: WeeklyReportQuery,
        response: { 200: WeeklyReport, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await telemetry.getWeeklyReport({ actor: actorOf(request), weekStart: q.week_start, includeSandbox: q.include_sandbox ?? false }, request.auth.callOptions);
      return weeklyReportToJson(res);
    },
  );

  for (const rollup of ROLLUPS) {
    fastify.get(
      `/v1/telemetry/rollups/${rollup.path}`,
      {
        config: OPERATOR_ONLY,
        schema: {
          tags: TAGS,
          operationId: rollup.operationId,
          summary: rollup.summary,
          description: `${rollup.description} ${WINDOW_NOTE}`,
          security: SECURITY.operator,
          querystring: RollupQuery,
          response: { 200: rollup.response, ...READ_ERRORS },
        },
      },
      async (request) => {
        const req = { actor: actorOf(request), query: rollupQueryFromJson(request.query) };
        const opts = request.auth.callOptions;
        if (rollup.call === 'getMarketIntegrityRollup') return rollup.toJson(await telemetry.getMarketIntegrityRollup(req, opts));
        if (rollup.call === 'getBytesToAtomsRollup') return rollup.toJson(await telemetry.getBytesToAtomsRollup(req, opts));
        return rollup.toJson(await telemetry.getCoordinationRollup(req, opts));
      },
    );
  }

  fastify.get(
    '/v1/metrics/outcomes',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getOutcomeMetrics',
        summary: 'Outcome metrics',
        description:
          'Contracts that ended in the window (success, refund and dispute rates, time to settle) and checkouts that ended ' +
          '(success rate, time to complete, volume). `agent_id`: the contracts where that agent is buyer or seller and its ' +
          `checkouts; \`merchant_id\`: purchases at that merchant domain only (\`contracts\` is null). ${WINDOW_NOTE}`,
        security: SECURITY.operator_or_agent,
        querystring: OutcomesQuery,
        response: { 200: OutcomeMetrics, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await telemetry.getOutcomeMetrics(
        { actor: actorOf(request), query: rollupQueryFromJson(q), merchantId: q.merchant_id, agentId: q.agent_id },
        request.auth.callOptions,
      );
      return outcomesToJson(res);
    },
  );
};

export default reportsRoutes;
