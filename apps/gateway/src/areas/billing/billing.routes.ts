import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MUTATION_ERRORS, OPERATOR_ONLY, SECURITY } from '../../lib/route-kit';
import { periodReceiptToJson, projectionToJson, reconcileFromJson, reconciliationToJson } from './billing.mapper';
import { AttachProjectionBody, BillingProjection, CreateProjectionBody, EmitReceiptBody, PeriodReceipt, Reconciliation, ReconcileBody } from './billing.schemas';
import { requireExactlyOne } from './exactly-one';

// Billing over WalletLedgerService (spec "Billing (operator only)"): project an agent's meter
// events over a UTC month, attach the projection to the period receipt, emit it (signed by the
// exchange, stored in the registry; the agent's period closes) and reconcile a receipt against
// the meter events. Agent-signed requests are refused (403 `operator_token_required`). Full paths.

export const TAGS = ['Billing'];

const billingRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;

  fastify.post(
    '/v1/billing/projections',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'createBillingProjection',
        summary: 'Create a billing projection from meter events (operator)',
        description:
          'Σ quantity × unit price of the agent’s meter events in `period` (a UTC month that has begun), one line per (meter, ' +
          'epoch) — an epoch boundary inside the month gives two lines — and one total per currency, with every priced event. A ' +
          'draft until attached. Errors: 400 `invalid_period`, 409 `projection_too_large` (more than 10 000 events), 503 `read_only`.',
        security: SECURITY.operator,
        body: CreateProjectionBody,
        response: { 201: BillingProjection, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await walletLedger.createBillingProjection({ agentId: request.body.agent_id, period: request.body.period }, request.auth.callOptions);
      return reply.code(201).send(projectionToJson(res.projection));
    },
  );

  fastify.post(
    '/v1/billing/projections/attach',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'attachBillingProjection',
        summary: 'Attach a projection to a period receipt (operator)',
        description:
          'The agent’s period receipt for the projection’s period (created as a draft on the first attach) now carries this ' +
          'projection; the one attached before becomes `superseded`. Errors: 404 `billing_projection_not_found`, 409 ' +
          '`billing_period_closed` (the receipt was emitted), 409 `invalid_state` (a superseded or emitted projection), 503 `read_only`.',
        security: SECURITY.operator,
        body: AttachProjectionBody,
        response: { 200: PeriodReceipt, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const res = await walletLedger.attachBillingProjection({ projectionId: request.body.projection_id }, request.auth.callOptions);
      return periodReceiptToJson(res.receipt);
    },
  );

  fastify.post(
    '/v1/billing/receipts/emit',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'emitPeriodReceipt',
        summary: 'Emit a subscription period receipt with its metered projection (operator)',
        description:
          'Signs the period receipt with the exchange key and stores it in the registry (`subscription_period_receipt`); the ' +
          'agent’s period is then closed to meter events (409 `billing_period_closed`). 201 when emitted now, 200 with the same ' +
          'receipt when it had been. Errors: 409 `period_not_ended` (the month has not ended), 409 `projection_not_attached`, 409 ' +
          '`projection_stale` (meter events changed since the attached projection: create and attach a new one), 404 ' +
          '`period_receipt_not_found`, 503 `read_only`.',
        security: SECURITY.operator,
        body: EmitReceiptBody,
        response: { 200: PeriodReceipt, 201: PeriodReceipt, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await walletLedger.emitPeriodReceipt({ agentId: request.body.agent_id, period: request.body.period }, request.auth.callOptions);
      return reply.code(res.created ? 201 : 200).send(periodReceiptToJson(res.receipt));
    },
  );

  fastify.post(
    '/v1/billing/reconciliation',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'reconcilePeriodReceipt',
        summary: 'Reconcile a subscription period receipt against meter events (operator)',
        description:
          'Exactly one of `period_receipt_id` (a stored, emitted receipt) and `receipt` (one as presented: its signed `payload` and ' +
          '`signature`; else 400 `validation_failed`). Recomputes the receipt from the agent’s meter events and their epoch ' +
          'tables, re-verifies every signature, and lists every difference (`missing`, `extra`, `repriced`, `altered`, ' +
          '`total_mismatch`, `event_invalid`, `epoch_table_invalid`, `signature_invalid`); `consistent` when there is none. ' +
          'Errors: 404 `period_receipt_not_found`.',
        security: SECURITY.operator,
        body: ReconcileBody,
        response: { 200: Reconciliation, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      requireExactlyOne(request.body, 'period_receipt_id', 'receipt');
      const res = await walletLedger.reconcilePeriodReceipt(reconcileFromJson(request.body), request.auth.callOptions);
      return reconciliationToJson(res.reconciliation);
    },
  );
};

export default billingRoutes;
