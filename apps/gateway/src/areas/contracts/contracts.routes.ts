import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problem } from '../../plugins/app/problem';
import { CancelContractBody, Contract, ContractPage, CreateContractBody } from './contracts.schemas';
import { VerificationReport } from '../verification/verification.schemas';
import { ContractParams, ListContractsQuery } from '../../lib/market/market.schemas';
import { Receipt } from '../receipts/receipts.schemas';
import { contractStatusFilter, verificationModeFromJson } from '../../lib/market/market.enums';
import { contractToJson, reportToJson } from '../../lib/market/market.mapper';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { partyFromJson } from '../../lib/acting-agent';
import {
  AGENT_OR_OPERATOR,
  IDEMPOTENCY_NOTE,
  marketKeyOf,
  MUTATION_ERRORS,
  PARTY_ERRORS,
  READ_ERRORS,
  replayed,
  SECURITY,
  STATE_NOTE,
} from '../../lib/route-kit';
import { receiptToJson } from '../wallets/wallet.mapper';

// The Contracts area (spec §4 Contracts): create, list, read, cancel, the settlement receipt and
// the latest verification report. Registered unwrapped with prefix /v1.

const TAGS = ['Contracts'];

const contractsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { market, walletLedger } = fastify;

  fastify.post(
    '/contracts',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createContract',
        summary: 'Create a contract (a buyer’s intent)',
        description:
          'Opens a contract with a budget, a deadline and acceptance criteria — each may be left out with a `template_id`, which ' +
          'supplies them (deadline = now + the template’s default duration); without a template a missing one is 400 ' +
          '`validation_failed` naming the field (from the market). Catalog: 404 `contract_template_not_found`, ' +
          '`work_product_template_not_found`, `fixture_not_found`. Resale (`resale_of`): 403 `resale_not_party`, 409 `invalid_state`, ' +
          '`resale_depth_exceeded`. Integrity: 503 `market_restricted`, `market_halted`, `kill_switch:new_contracts`, `read_only`. ' +
          'Errors: 400 `invalid_deadline` (not in the future), ' +
          '`invalid_amount`, `verifier_required` (mode `verifier` without `verifier_id`), `verifier_not_allowed` (verifier_id with ' +
          'another mode), `verifier_is_buyer`; 404 `verifier_not_found`, `listing_not_found`. ' +
          PARTY_ERRORS +
          ' ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateContractBody,
        response: { 201: Contract, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await market.createContract(
        {
          buyerId: partyFromJson(b.buyer_id),
          title: b.title,
          description: b.description ?? '',
          tags: b.tags ?? [],
          // Left out with a template: the market inherits them (and answers 400 naming the field without one).
          budget: b.budget ? { amount: b.budget.amount, currency: b.budget.currency } : undefined,
          deadline: b.deadline === undefined ? undefined : new Date(b.deadline),
          acceptanceCriteria: b.acceptance_criteria ?? '',
          verificationMode: verificationModeFromJson(b.verification_mode),
          verifierId: b.verifier_id,
          listingId: b.listing_id,
          buyerPrivate: b.buyer_private ?? false,
          templateId: b.template_id,
          workProductTemplateId: b.work_product_template_id,
          fixtureId: b.fixture_id,
          labels: b.labels ?? {},
          inputRefs: b.input_refs ?? [],
          resaleOf: b.resale_of,
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return reply.code(201).send(contractToJson(res.contract));
    },
  );

  fastify.get(
    '/contracts',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listContracts',
        summary: 'List contracts',
        description: 'Filters `buyer_id`, `seller_id`, `status`; cursor pagination (`limit`, `cursor` → `next_cursor`).',
        security: SECURITY.operator_or_agent,
        querystring: ListContractsQuery,
        response: { 200: ContractPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await market.listContracts(
        { page: pageFromQuery(q), buyerId: q.buyer_id, sellerId: q.seller_id, status: contractStatusFilter(q.status) },
        request.auth.callOptions,
      );
      return { data: res.contracts.map(contractToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/contracts/:contract_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getContract',
        summary: 'Read a contract',
        description: 'Errors: 404 `contract_not_found`.',
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        response: { 200: Contract, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await market.getContract({ contractId: request.params.contract_id }, request.auth.callOptions);
      return contractToJson(res.contract);
    },
  );

  fastify.post(
    '/contracts/:contract_id/cancel',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'cancelContract',
        summary: 'Cancel a contract',
        description:
          'Open: by the buyer or an operator. Awarded: by the awarded seller or an operator, and the escrow goes back to the buyer ' +
          '(refund receipt). Anyone else: 403 `not_allowed_to_cancel`. ' +
          STATE_NOTE +
          ' 503 `wallet_unavailable` when a pending settlement step cannot reach the wallet. 404 `contract_not_found`. The body ' +
          'may be omitted. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        body: CancelContractBody,
        response: { 200: Contract, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const res = await market.cancelContract(
        { contractId: request.params.contract_id, reason: request.body?.reason, idempotencyKey: marketKeyOf(request) },
        request.auth.callOptions,
      );
      replayed(reply, res);
      return contractToJson(res.contract);
    },
  );

  fastify.get(
    '/contracts/:contract_id/receipt',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getContractReceipt',
        summary: 'Read the settlement receipt of a contract',
        description:
          'The latest settlement or refund receipt of the contract, exactly as GET /v1/receipts/{receipt_id} answers it (signed by ' +
          'the exchange key published by /health). Errors: 404 `contract_not_found`, 404 `receipt_not_found` (no money has moved ' +
          'yet); an agent-signed request only for a contract where it is the payer or the payee (else 403 `forbidden`).',
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        response: { 200: Receipt, ...READ_ERRORS },
      },
    },
    async (request) => {
      const { contract } = await market.getContract({ contractId: request.params.contract_id }, request.auth.callOptions);
      const receiptId = contract?.receiptId;
      if (!receiptId) {
        throw problem(404, 'receipt_not_found', `contract ${request.params.contract_id} has no receipt yet`);
      }
      const res = await walletLedger.getReceipt({ receiptId, contractId: '' }, request.auth.callOptions);
      const receipt = receiptToJson(res.receipt);
      const auth = request.auth;
      if (auth.kind === 'agent' && auth.actingAgentId !== receipt.payer && auth.actingAgentId !== receipt.payee) {
        throw problem(403, 'forbidden', 'only the payer, the payee or an operator may read this receipt');
      }
      return receipt;
    },
  );

  fastify.get(
    '/contracts/:contract_id/verification',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getContractVerification',
        summary: 'Read the latest verification report of a contract',
        description: 'Errors: 404 `contract_not_found`, 404 `verification_not_found` (no report yet).',
        security: SECURITY.operator_or_agent,
        params: ContractParams,
        response: { 200: VerificationReport, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await market.getLatestVerification({ contractId: request.params.contract_id }, request.auth.callOptions);
      return reportToJson(res.report);
    },
  );
};

export default contractsRoutes;
