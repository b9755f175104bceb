// The market areas of the REST API: contracts (with their offers, results, verification and
// disputes as sub-collections), offers, results, disputes, listings, verifiers and the
// verification metrics. Inputs are camelCase, answers the gateway's snake_case JSON. Every
// mutation is sent with an idempotency key (yours, or a fresh one): pass your own and reuse it
// when retrying, and `idempotencyOf(result).replayed` tells whether the answer was a replay.
import { sendIdempotent } from './idempotency';
import type {
  Contract,
  ContractStatus,
  Dispute,
  DisputeOutcome,
  DisputeStatus,
  Listing,
  Money,
  Offer,
  OfferStatus,
  Result,
  ResultStatus,
  VerificationMetrics,
  VerificationMode,
  VerificationReport,
  VerificationWindow,
  Verifier,
  VerifierListing,
} from './market-types';
import { paginate, type Page, type PageParams } from './pagination';
import type { Receipt } from './receipts';
import { pathSegment, type Transport } from './transport';
import { reportChecks, type VerificationReportInput } from './verification-report';
import type { Idempotent } from './wallets';

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

export interface SubmitOfferInput extends Idempotent {
  sellerId?: string;
  price: Money;
  eta: Date | string;
  terms?: string;
}

export interface ListOffersParams extends PageParams {
  sellerId?: string;
  status?: OfferStatus;
}

export interface SubmitResultInput extends Idempotent {
  sellerId?: string;
  summary: string;
  /** `sha256:<64 hex>` each. */
  artifactRefs?: string[];
  /** Any JSON value (≤ 256 KiB serialized). */
  payload?: unknown;
}

export interface ListResultsParams extends PageParams {
  sellerId?: string;
  status?: ResultStatus;
}

/** A report and its signature (`signVerificationReport(report, privateKey)`). */
export interface SubmitVerificationInput extends VerificationReportInput, Idempotent {
  signature: string;
}

export interface OpenDisputeInput extends Idempotent {
  openedBy?: string;
  reason: string;
  evidenceRefs?: string[];
}

export interface ListDisputesParams extends PageParams {
  openedBy?: string;
  status?: DisputeStatus;
}

export interface ResolveDisputeInput extends Idempotent {
  outcome: DisputeOutcome;
  /** 1-9999, only (and required) with outcome `split`. */
  sellerShareBps?: number;
  rationale: string;
}

export interface CreateListingInput extends Idempotent {
  sellerId?: string;
  title: string;
  description?: string;
  tags?: string[];
  price: Money;
  /** ISO 8601 duration ("PT24H"). */
  turnaround?: string;
}

export interface ListListingsParams extends PageParams {
  tag?: string;
}

export interface RegisterVerifierInput extends Idempotent {
  verifierId?: string;
  name: string;
  description?: string;
  tags?: string[];
  fee?: Money;
}

export interface CreateVerifierListingInput extends Idempotent {
  verifierId?: string;
  title: string;
  tags?: string[];
  price: Money;
  /** ISO 8601 duration ("PT2H"). */
  turnaround: string;
}

export interface ListVerifierListingsParams extends PageParams {
  verifierId?: string;
}

/** Drops undefined members so that an absent optional is absent from the JSON body. */
export function compact(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}
const iso = (value: Date | string): string => (value instanceof Date ? value.toISOString() : value);
const money = (m: Money): Money => ({ amount: m.amount, currency: m.currency });
const contractPath = (contractId: string, suffix = ''): string => `/v1/contracts/${pathSegment(contractId)}${suffix}`;

/** Shared plumbing of the market APIs. */
export class MarketBase {
  constructor(protected readonly transport: Transport) {}

  protected post<T>(path: string, body: Record<string, unknown>, key: string | undefined): Promise<T> {
    return sendIdempotent<T>(this.transport, { method: 'POST', path, body: compact(body) }, key);
  }

  protected read<T>(path: string, query?: Record<string, string | number | boolean | undefined>): Promise<T> {
    return this.transport.request<T>({ method: 'GET', path, query });
  }
}

/** `client.contracts.offers`: offers on one contract. */
export class ContractOffersApi extends MarketBase {
  /** POST /v1/contracts/{id}/offers → 201 Offer. */
  submit(contractId: string, input: SubmitOfferInput): Promise<Offer> {
    return this.post(
      contractPath(contractId, '/offers'),
      { seller_id: input.sellerId, price: money(input.price), eta: iso(input.eta), terms: input.terms },
      input.idempotencyKey,
    );
  }

  list(contractId: string, params: ListOffersParams = {}): Promise<Page<Offer>> {
    return this.read(contractPath(contractId, '/offers'), { limit: params.limit, cursor: params.cursor, seller_id: params.sellerId, status: params.status });
  }
}

/** `client.contracts.results`: deliveries on one contract. */
export class ContractResultsApi extends MarketBase {
  /** POST /v1/contracts/{id}/results → 201 Result (only the awarded seller). */
  submit(contractId: string, input: SubmitResultInput): Promise<Result> {
    return this.post(
      contractPath(contractId, '/results'),
      { seller_id: input.sellerId, summary: input.summary, artifact_refs: input.artifactRefs, payload: input.payload },
      input.idempotencyKey,
    );
  }

  list(contractId: string, params: ListResultsParams = {}): Promise<Page<Result>> {
    return this.read(contractPath(contractId, '/results'), { limit: params.limit, cursor: params.cursor, seller_id: params.sellerId, status: params.status });
  }
}

/** `client.contracts.disputes`: disputes on one contract. */
export class ContractDisputesApi extends MarketBase {
  /** POST /v1/contracts/{id}/disputes → 201 Dispute (the buyer or the awarded seller). */
  open(contractId: string, input: OpenDisputeInput): Promise<Dispute> {
    return this.post(
      contractPath(contractId, '/disputes'),
      { opened_by: input.openedBy, reason: input.reason, evidence_refs: input.evidenceRefs },
      input.idempotencyKey,
    );
  }

  list(contractId: string, params: ListDisputesParams = {}): Promise<Page<Dispute>> {
    return this.read(contractPath(contractId, '/disputes'), { limit: params.limit, cursor: params.cursor, opened_by: params.openedBy, status: params.status });
  }
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
      },
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
    return this.post(contractPath(contractId, '/cancel'), { reason: input.reason }, input.idempotencyKey);
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
    return this.post(contractPath(contractId, '/buyer-alias'), { reason: input.reason, buyer_private: input.buyerPrivate }, input.idempotencyKey);
  }

  /** POST /v1/contracts/{id}/award/{offer_id} (operator) → Contract (awarded, escrow held). */
  award(contractId: string, offerId: string, input: Idempotent = {}): Promise<Contract> {
    return this.post(contractPath(contractId, `/award/${pathSegment(offerId)}`), {}, input.idempotencyKey);
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
      },
      input.idempotencyKey,
    );
  }
}

export class OffersApi extends MarketBase {
  get(offerId: string): Promise<Offer> {
    return this.read(`/v1/offers/${pathSegment(offerId)}`);
  }

  /** POST /v1/offers/{id}/withdraw (the offer's seller or an operator; only a submitted offer). */
  withdraw(offerId: string, input: Idempotent = {}): Promise<Offer> {
    return this.post(`/v1/offers/${pathSegment(offerId)}/withdraw`, {}, input.idempotencyKey);
  }
}

export class ResultsApi extends MarketBase {
  get(resultId: string): Promise<Result> {
    return this.read(`/v1/results/${pathSegment(resultId)}`);
  }
}

export class DisputesApi extends MarketBase {
  get(disputeId: string): Promise<Dispute> {
    return this.read(`/v1/disputes/${pathSegment(disputeId)}`);
  }

  /** POST /v1/disputes/{id}/resolve (operator) → Dispute. */
  resolve(disputeId: string, input: ResolveDisputeInput): Promise<Dispute> {
    return this.post(
      `/v1/disputes/${pathSegment(disputeId)}/resolve`,
      { outcome: input.outcome, seller_share_bps: input.sellerShareBps, rationale: input.rationale },
      input.idempotencyKey,
    );
  }
}

export class ListingsApi extends MarketBase {
  /** POST /v1/listings → 201 Listing. */
  create(input: CreateListingInput): Promise<Listing> {
    return this.post(
      '/v1/listings',
      { seller_id: input.sellerId, title: input.title, description: input.description, tags: input.tags, price: money(input.price), turnaround: input.turnaround },
      input.idempotencyKey,
    );
  }

  list(params: ListListingsParams = {}): Promise<Page<Listing>> {
    return this.read('/v1/listings', { limit: params.limit, cursor: params.cursor, tag: params.tag });
  }

  get(listingId: string): Promise<Listing> {
    return this.read(`/v1/listings/${pathSegment(listingId)}`);
  }
}

/** `client.verifiers.listings`: what verifiers offer. */
export class VerifierListingsApi extends MarketBase {
  /** POST /v1/verifier-listings → 201 VerifierListing (the verifier must have a profile). */
  create(input: CreateVerifierListingInput): Promise<VerifierListing> {
    return this.post(
      '/v1/verifier-listings',
      { verifier_id: input.verifierId, title: input.title, tags: input.tags, price: money(input.price), turnaround: input.turnaround },
      input.idempotencyKey,
    );
  }

  list(params: ListVerifierListingsParams = {}): Promise<Page<VerifierListing>> {
    return this.read('/v1/verifier-listings', { limit: params.limit, cursor: params.cursor, verifier_id: params.verifierId });
  }
}

export class VerifiersApi extends MarketBase {
  readonly listings: VerifierListingsApi;

  constructor(transport: Transport) {
    super(transport);
    this.listings = new VerifierListingsApi(transport);
  }

  /** POST /v1/verifiers → 201 Verifier (one profile per agent: 409 `verifier_exists`). */
  register(input: RegisterVerifierInput): Promise<Verifier> {
    return this.post(
      '/v1/verifiers',
      { verifier_id: input.verifierId, name: input.name, description: input.description, tags: input.tags, fee: input.fee ? money(input.fee) : undefined },
      input.idempotencyKey,
    );
  }

  list(params: PageParams = {}): Promise<Page<Verifier>> {
    return this.read('/v1/verifiers', { limit: params.limit, cursor: params.cursor });
  }
}

export class TelemetryApi extends MarketBase {
  /** GET /v1/telemetry/verification?window=… (default all). */
  verification(window?: VerificationWindow): Promise<VerificationMetrics> {
    return this.read('/v1/telemetry/verification', { window });
  }
}
