// Checkout sessions at UCP merchants (DESIGN §4 Commerce): create under a mandate, update,
// complete (the buyer's wallet pays the merchant), cancel, the signer's step-up approval, the
// hash-chained evidence and the casefile docket. UCP parts (line items, buyer, context, payment)
// are plain objects as UCP defines them.
import { signCanonical } from '@exchange/crypto';
import { sendIdempotent } from './idempotency';
import { compact } from './market-base';
import { paginate, type PageParams } from './pagination';
import { pathSegment, type Transport } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

export type CheckoutSession = api.CheckoutSession;
export type CompletedCheckout = api.CompletedCheckout;
export type Purchase = api.Purchase;
export type DiscountResult = api.DiscountResult;
export type EvidenceItem = api.EvidenceItem;
/** Evidence in chain order; `chain_valid` says whether the whole chain recomputes. */
export type EvidencePage = api.EvidencePage;
export type CheckoutCasefileVerdict = api.CheckoutCasefileVerdict;
export type CheckoutStatus = CheckoutSession['status'];
export type ApprovalState = CheckoutSession['approval'];
export type ApprovalDecision = api.SubmitCheckoutApprovalRequest['decision'];
export type LineItem = api.CreateCheckoutRequest['line_items'][number];
/** Exactly one of `contract_id` or `workflow_run_id`: where the checkout comes from. */
export type CheckoutOrigin = api.CheckoutOrigin;

export interface CreateCheckoutInput extends Idempotent {
  mandateId: string;
  merchantDomain: string;
  lineItems: LineItem[];
  /** Default: the acting agent. */
  buyerAgentId?: string;
  buyer?: Record<string, unknown>;
  context?: Record<string, unknown>;
  discountCodes?: string[];
  /** `live` (default) or `shadow` (never completed). */
  mode?: CheckoutSession['mode'];
  intentId?: string;
  /** The contract (its buyer or awarded seller) or workflow run (its owner) this checkout comes from. */
  origin?: CheckoutOrigin;
}

export interface UpdateCheckoutInput extends Idempotent {
  lineItems?: LineItem[];
  buyer?: Record<string, unknown>;
  context?: Record<string, unknown>;
  /** Present (even empty) replaces the codes. */
  discountCodes?: string[];
}

export interface ApprovalInput {
  decision: ApprovalDecision;
  /** The mandate's signer (the acting agent). */
  approverId: string;
  /** `signApproval(…)` by the approver. */
  signature: string;
}

/**
 * The approval signature: base64 ed25519 over canonical JSON {commerce_session_id, decision,
 * approver_id, total, currency}, the session's `total` and `currency` as the session shows them.
 */
export function signApproval(
  input: { commerceSessionId: string; decision: ApprovalDecision; approverId: string; total: string; currency: string },
  privateKey: Uint8Array,
): string {
  return signCanonical(
    { commerce_session_id: input.commerceSessionId, decision: input.decision, approver_id: input.approverId, total: input.total, currency: input.currency },
    privateKey,
  );
}

const sessionPath = (id: string, suffix = '') => `/v1/commerce/ucp/checkout/${pathSegment(id)}${suffix}`;

export class CheckoutApi {
  constructor(private readonly transport: Transport) {}

  private send<T>(path: string, body: Record<string, unknown>, key: string | undefined): Promise<T> {
    return sendIdempotent<T>(this.transport, { method: 'POST', path, body: compact(body) }, key);
  }

  /** POST /v1/commerce/ucp/checkout/create → 201 session. */
  create(input: CreateCheckoutInput): Promise<CheckoutSession> {
    return this.send(
      '/v1/commerce/ucp/checkout/create',
      {
        buyer_agent_id: input.buyerAgentId,
        mandate_id: input.mandateId,
        merchant_domain: input.merchantDomain,
        line_items: input.lineItems,
        buyer: input.buyer,
        context: input.context,
        discount_codes: input.discountCodes,
        mode: input.mode,
        intent_id: input.intentId,
        origin: input.origin,
      } satisfies Omit<api.CreateCheckoutRequest, 'idempotency_key'>,
      input.idempotencyKey,
    );
  }

  /** GET the session; `refresh` reads the merchant's session again first. */
  get(commerceSessionId: string, opts: { refresh?: boolean } = {}): Promise<CheckoutSession> {
    return this.transport.request({ method: 'GET', path: sessionPath(commerceSessionId), query: { refresh: opts.refresh } });
  }

  update(commerceSessionId: string, input: UpdateCheckoutInput): Promise<CheckoutSession> {
    return this.send(
      sessionPath(commerceSessionId, '/update'),
      { line_items: input.lineItems, buyer: input.buyer, context: input.context, discount_codes: input.discountCodes } satisfies Omit<api.UpdateCheckoutRequest, 'idempotency_key'>,
      input.idempotencyKey,
    );
  }

  /** Pays the merchant from the buyer's wallet; `purchase` once settled. `payment`: a UCP payment object (default instrument otherwise). */
  complete(commerceSessionId: string, input: Idempotent & { payment?: Record<string, unknown> } = {}): Promise<CompletedCheckout> {
    return this.send(sessionPath(commerceSessionId, '/complete'), { payment: input.payment }, input.idempotencyKey);
  }

  cancel(commerceSessionId: string, input: Idempotent = {}): Promise<CheckoutSession> {
    return this.send(sessionPath(commerceSessionId, '/cancel'), {}, input.idempotencyKey);
  }

  /** The mandate signer's decision on a pending session. */
  submitApproval(commerceSessionId: string, input: ApprovalInput): Promise<CheckoutSession> {
    return this.transport.request({
      method: 'POST',
      path: sessionPath(commerceSessionId, '/approval'),
      body: { decision: input.decision, approver_id: input.approverId, signature: input.signature } satisfies api.SubmitCheckoutApprovalRequest,
    });
  }

  /** Applies discount codes (replacing earlier ones): which were applied, which refused and why. */
  applyDiscount(commerceSessionId: string, codes: string[], input: Idempotent = {}): Promise<DiscountResult> {
    return this.send(sessionPath(commerceSessionId, '/discount'), { codes }, input.idempotencyKey);
  }

  /** GET …/artifacts: one page of evidence. */
  listArtifacts(commerceSessionId: string, params: PageParams = {}): Promise<EvidencePage> {
    return this.transport.request({ method: 'GET', path: sessionPath(commerceSessionId, '/artifacts'), query: { limit: params.limit, cursor: params.cursor } });
  }

  /** Every evidence item, page after page. */
  iterateArtifacts(commerceSessionId: string, params: Omit<PageParams, 'cursor'> = {}): AsyncGenerator<EvidenceItem, void, undefined> {
    return paginate(async (cursor) => {
      const page = await this.listArtifacts(commerceSessionId, { ...params, cursor });
      return { data: page.items, next_cursor: page.next_cursor };
    });
  }

  /** The session's casefile docket, signed by the exchange key. */
  exportCasefile(commerceSessionId: string): Promise<Record<string, unknown>> {
    return this.transport
      .request<api.CheckoutDocket>({ method: 'POST', path: sessionPath(commerceSessionId, '/casefile/export'), body: {} })
      .then((res) => res.docket);
  }

  /** Verifies `docket` (default: the stored session's, exported now) against the exchange key or `exchangePublicKey`. */
  verifyCasefile(commerceSessionId: string, input: { docket?: Record<string, unknown>; exchangePublicKey?: string } = {}): Promise<CheckoutCasefileVerdict> {
    return this.transport.request({
      method: 'POST',
      path: sessionPath(commerceSessionId, '/casefile/verify'),
      body: compact({ docket: input.docket, exchange_public_key: input.exchangePublicKey } satisfies api.VerifyCheckoutCasefileRequest),
    });
  }
}
