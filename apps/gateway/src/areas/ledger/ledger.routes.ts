import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses, SECURITY } from '../../schemas/common';
import { LedgerCheckReport } from './ledger.schemas';
import { ledgerReportToJson } from './ledger.mapper';

// GET /v1/ledger/check (operator, beyond the spec): wallet-ledger recomputes every balance from
// the journal and reports discrepancies (the same check as `npm run ledger:check`).

/** A full reconciliation reads every posting: allow it longer than an ordinary call. */
export const LEDGER_CHECK_DEADLINE_MS = 60_000;

const ledgerRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;
  fastify.get(
    '/check',
    {
      config: { auth: 'operator' },
      schema: {
        tags: ['Ledger'],
        operationId: 'checkLedger',
        summary: 'Reconcile the ledger (operator)',
        description:
          '`ok` is true when every account balance equals the sum of its postings, every journal entry sums to zero, each ' +
          'currency’s accounts sum to "0" and no agent balance is negative. 200 either way; read `ok` and `discrepancies`.',
        security: SECURITY.operator,
        response: { 200: LedgerCheckReport, ...problemResponses(401, 403, 429, 503, 504) },
      },
    },
    async (request) =>
      ledgerReportToJson(await walletLedger.checkLedger({}, { ...request.auth.callOptions, deadlineMs: LEDGER_CHECK_DEADLINE_MS })),
  );
};

export default ledgerRoutes;
