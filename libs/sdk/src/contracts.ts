// The Contracts area of the REST API, with the offers, results and disputes on one contract as
// sub-collections (`client.contracts.offers`, …). Inputs are camelCase, answers the gateway's
// snake_case JSON. Every mutation is sent with an idempotency key (yours, or a fresh one): pass
// your own and reuse it when retrying, and `idempotencyOf(result).replayed` tells whether the
// answer was a replay.
import { ContractDisputesApi } from './disputes';
import { contractPath, iso, MarketBase, money } from './market-base';
import type { Contract, ContractStatus, Money, VerificationMode, VerificationReport } from './market-types';
import { ContractOffersApi } from './offers';
import { paginate, type Page, type PageParams } from './pagination';
import type { Receipt } from './receipts';
import { ContractResultsApi } from './results';
import { pathSegment, type Transport } from './transport';
import { reportChecks, type VerificationReportInput } from './verification-report';
import type { Idempotent } from './wallets';
import type { api } from './wire';

export interface CreateContractInput extends Idempotent {
  /** Default: the acting agent (the signer, or `actingAgentId` with an operator token). */
  buyerId?: string;
  title: string;
  description?: string;
  tags?: string[];
  /** Required unless `templateId` names a template that suggests a budget. */
  budget?: Money;
  /** Strictly in the future. Default with a template: now + its `default_deadline`. */
  deadline?: Date | string;
  /** Required unless `templateId` is given (then inherited). */
  acceptanceCriteria?: string;
  /** Default `buyer` (or the template's). */
  verificationMode?: VerificationMode;
  /** Required with mode `verifier`. */
  verifierId?: string;
  listingId?: string;
  /** Hide the buyer behind a party alias. */
  buyerPrivate?: boolean;
  /** A contract template (`client.templates.contracts()`): what you leave out is inherited. */
  templateId?: string;
  workProductTemplateId?: string;
  /** A fixture (`client.fixtures.list()`) the work is checked against. */
  fixtureId?: string;
  /** Resale: the contract you were awarded and now subcontract (awards wait for an operator review). */
  resaleOf?: string;
  /** Up to 16 labels (keys of [a-z0-9_.-], values up to 256 characters); workflows label their shard contracts. */
  labels?: Record<string, string>;
  /** Up to 64 references (e.g. artifact refs) the work starts from. */
  inputRefs?: string[];
}

export interface UpdateBuyerAliasInput extends Idempotent {
  /** 1–500 characters, kept in the audit log. */
  reason: string;
  /** true (default): a fresh alias; false: the buyer becomes visible. */
  buyerPrivate?: boolean;
}

export interface ListContractsParams extends PageParams {
  buyerId?: string;
  sellerId?: string;
  status?: ContractStatus;
}

export interface CancelContractInput extends Idempotent {
  reason?: string;
}

/** A report and its signature (`signVerificationReport(report, privateKey)`). */
export interface SubmitVerificationInput extends VerificationReportInput, Idempotent {
  signature: string;
}

export class ContractsApi extends MarketBase {
  readonly offers: ContractOffersApi;
  readonly results: ContractResultsApi;
  readonly disputes: ContractDisputesApi;

  constructor(transport: Transport) {
    super(transport);
    this.offers = new ContractOffersApi(transport);
    this.results = new ContractResultsApi(transport);
    this.disputes = new ContractDisputesApi(transport);
  }

  /** POST /v1/contracts → 201 Contract (status `open`). */
  create(input: CreateContractInput): Promise<Contract> {
    return this.post(
      '/v1/contracts',
      {
        buyer_id: input.buyerId,
        title: input.title,
        description: input.description,
        tags: input.tags,
        budget: input.budget === undefined ? undefined : money(input.budget),
        deadline: input.deadline === undefined ? undefined : iso(input.deadline),
        acceptance_criteria: input.acceptanceCriteria,
        verification_mode: input.verificationMode,
        verifier_id: input.verifierId,
        listing_id: input.listingId,
        buyer_private: input.buyerPrivate,
        template_id: input.templateId,
        work_product_template_id: input.workProductTemplateId,
        fixture_id: input.fixtureId,
        resale_of: input.resaleOf,
        labels: input.labels,
        input_refs: input.inputRefs,
      } satisfies api.CreateContractRequest,
      input.idempotencyKey,
    );
  }

  list(params: ListContractsParams = {}): Promise<Page<Contract>> {
    return this.read('/v1/contracts', {
      limit: params.limit,
      cursor: params.cursor,
      buyer_id: params.buyerId,
      seller_id: params.sellerId,
      status: params.status,
    });
  }

  /** Every contract matching the filter, page after page. */
  iterate(params: Omit<ListContractsParams, 'cursor'> = {}): AsyncGenerator<Contract, void, undefined> {
    return paginate((cursor) => this.list({ ...params, cursor }));
  }

  get(contractId: string): Promise<Contract> {
    return this.read(contractPath(contractId));
  }

  /** POST /v1/contracts/{id}/cancel → Contract (open: buyer/operator; awarded: seller/operator, escrow released). */
  cancel(contractId: string, input: CancelContractInput = {}): Promise<Contract> {
    return this.post(contractPath(contractId, '/cancel'), { reason: input.reason } satisfies api.CancelContractRequest, input.idempotencyKey);
  }

  /** GET /v1/contracts/{id}/receipt: the latest settlement or refund receipt (check it with `verifyReceipt`). */
  receipt(contractId: string): Promise<Receipt> {
    return this.read(contractPath(contractId, '/receipt'));
  }

  /** GET /v1/contracts/{id}/verification: the latest verification report. */
  verification(contractId: string): Promise<VerificationReport> {
    return this.read(contractPath(contractId, '/verification'));
  }

  /** POST /v1/contracts/{id}/buyer-alias (operator) → Contract: rotate the buyer alias, or make the buyer visible. */
  updateBuyerAlias(contractId: string, input: UpdateBuyerAliasInput): Promise<Contract> {
    return this.post(
      contractPath(contractId, '/buyer-alias'),
      { reason: input.reason, buyer_private: input.buyerPrivate } satisfies api.UpdateBuyerAliasRequest,
      input.idempotencyKey,
    );
  }

  /** POST /v1/contracts/{id}/award/{offer_id} (operator) → Contract (awarded, escrow held). */
  award(contractId: string, offerId: string, input: Idempotent = {}): Promise<Contract> {
    return this.post(contractPath(contractId, `/award/${pathSegment(offerId)}`), {} satisfies api.AwardOfferRequest, input.idempotencyKey);
  }

  /** POST /v1/contracts/{id}/verify → 201 VerificationReport; pass settles the contract, fail reopens it. */
  verify(contractId: string, input: SubmitVerificationInput): Promise<VerificationReport> {
    return this.post(
      contractPath(contractId, '/verify'),
      {
        verifier_id: input.verifierId,
        result_id: input.resultId,
        verdict: input.verdict,
        score: input.score,
        checks: reportChecks(input.checks),
        signature: input.signature,
      } satisfies api.SubmitVerificationRequest,
      input.idempotencyKey,
    );
  }
}
