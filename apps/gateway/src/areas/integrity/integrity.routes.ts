import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuditPage,
  ErroneousClearBody,
  ErroneousClearResult,
  IntegritySnapshot,
  ListAuditQuery,
  SetIntegrityStateBody,
  SetKillSwitchBody,
} from './integrity.schemas';
import { contractToJson } from '../../lib/market/market.mapper';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, OPERATOR_ONLY, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import { receiptToJson } from '../wallets/wallet.mapper';
import { auditEntryToJson, guardViewOf, integrityStateFromJson, snapshotToJson } from './integrity.mapper';

// Market integrity (issue 6 §6): the state machine, the kill switches, the erroneous-clear
// correction and the audit log (MarketIntegrityService). Registered with prefix
// /v1/market-integrity. These POSTs are the only mutations read-only mode lets through.

const TAGS = ['Market integrity'];
const OPERATOR_NOTE = 'Operator token only (403 otherwise); written to the audit log with the operator and the reason. ';

const integrityRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { integrity, integrityCache } = fastify;

  fastify.get(
    '/state',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getIntegrityState',
        summary: 'Read the market integrity state and kill switches',
        description:
          'The state (`normal`, `elevated`, `restricted` — new contracts 503 `market_restricted` —, `halted` — also awards and ' +
          'settlements 503 `market_halted`) and all six kill switches (`new_contracts`, `awards`, `settlements`, `withdrawals`, ' +
          '`faucet`, `read_only`; an enabled one answers 503 `kill_switch:<name>`, `read_only` answers every mutation 503 `read_only`).',
        security: SECURITY.operator_or_agent,
        response: { 200: IntegritySnapshot, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await integrity.getIntegrityState({}, request.auth.callOptions);
      integrityCache.set(guardViewOf(res.integrity));
      return snapshotToJson(res.integrity);
    },
  );

  fastify.post(
    '/state',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'setIntegrityState',
        summary: 'Change the market integrity state (operator)',
        description:
          OPERATOR_NOTE +
          'Any other state may be entered directly (normal → elevated → restricted → halted): an emergency halt is one call ' +
          '(normal → halted); lowering is free. Each change is one audit row (`state_changed`, before/after). The same state ' +
          'again is 409 `invalid_state` (with `current` and `wanted`). ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator,
        body: SetIntegrityStateBody,
        response: { 200: IntegritySnapshot, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await integrity.setIntegrityState(
        { state: integrityStateFromJson(request.body.state), reason: request.body.reason, idempotencyKey: marketKeyOf(request) },
        request.auth.callOptions,
      );
      integrityCache.set(guardViewOf(res.integrity));
      replayed(reply, res);
      return snapshotToJson(res.integrity);
    },
  );

  fastify.post(
    '/kill-switches',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'setKillSwitch',
        summary: 'Turn a kill switch on or off (operator)',
        description:
          OPERATOR_NOTE +
          '`new_contracts` blocks POST /v1/contracts, `awards` the award route, `settlements` every payout (verification, auto mode, ' +
          'dispute resolution), `withdrawals` and `faucet` the wallet routes (503 `kill_switch:<name>`); `read_only` answers every ' +
          'mutation 503 `read_only` except these integrity routes. The gateway sees a change made through it at once and other ' +
          'changes within GATEWAY_INTEGRITY_CACHE_MS. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator,
        body: SetKillSwitchBody,
        response: { 200: IntegritySnapshot, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await integrity.setKillSwitch(
        { name: b.name, enabled: b.enabled, reason: b.reason, idempotencyKey: marketKeyOf(request) },
        request.auth.callOptions,
      );
      integrityCache.set(guardViewOf(res.integrity));
      replayed(reply, res);
      return snapshotToJson(res.integrity);
    },
  );

  fastify.post(
    '/erroneous-clear',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'erroneousClear',
        summary: 'Reverse an erroneous settlement (operator)',
        description:
          OPERATOR_NOTE +
          'A `settled` contract becomes `corrected`: wallet-ledger reverses the settlement with compensating journal entries and ' +
          'issues a signed correction receipt (`kind: correction`, `corrects_receipt_id` = the settlement receipt). Errors: 404 ' +
          '`contract_not_found`; 409 `invalid_state` (not settled), `insufficient_funds` (the payee no longer holds the money). ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator,
        body: ErroneousClearBody,
        response: { 200: ErroneousClearResult, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await integrity.correctErroneousClear(
        { contractId: b.contract_id, reason: b.reason, idempotencyKey: marketKeyOf(request) },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return { contract: contractToJson(res.contract), receipt: receiptToJson(res.receipt) };
    },
  );

  fastify.get(
    '/audit',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'listIntegrityAudit',
        summary: 'Read the integrity audit log (operator)',
        description:
          'Every integrity and governance change (state, kill switch, erroneous clear, buyer alias, resale review) with the operator ' +
          'and the reason, newest first; filter `action`; cursor pagination.',
        security: SECURITY.operator,
        querystring: ListAuditQuery,
        response: { 200: AuditPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await integrity.listIntegrityAudit({ page: pageFromQuery(q), action: q.action }, request.auth.callOptions);
      return { data: res.entries.map(auditEntryToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );
};

export default integrityRoutes;
