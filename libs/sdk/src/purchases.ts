// After and around a purchase (DESIGN §4 Commerce): AP2-style intents a checkout may name,
// feedback on a deal, shadow-versus-live comparison, a deal's timeline, and post-purchase cases
// (return, refund, chargeback) whose approval credits the buyer through the ledger.
import { sendIdempotent } from './idempotency';
import { compact, iso } from './market-base';
import type { Money } from './market-types';
import { paginate, type Page, type PageParams } from './pagination';
import { pathSegment, type Transport } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

export type Intent = api.Intent;
export type Feedback = api.Feedback;
export type ShadowCompare = api.ShadowCompare;
export type PurchaseTimeline = api.PurchaseTimeline;
export type PostPurchaseCase = api.PostPurchaseCase;
export type CaseEvent = api.CaseEvent;
export type CaseUpdate = api.CaseUpdate;
export type CaseType = PostPurchaseCase['type'];
export type CaseStatus = PostPurchaseCase['status'];

export interface CreateIntentInput extends Idempotent {
  /** Default: the acting agent. */
  agentId?: string;
  description: string;
  /** Empty or absent: any. */
  merchants?: string[];
  skus?: string[];
  /** The most one session under the intent may total. */
  budget: Money;
  requiresRefundability?: boolean;
  expiresAt: Date | string;
}

export interface ShadowCompareParams extends PageParams {
  from?: Date | string;
  to?: Date | string;
  merchantDomain?: string;
  /** The operator only (an agent sees its own sessions). */
  buyerAgentId?: string;
}

export interface OpenCaseInput extends Idempotent {
  dealId: string;
  type: CaseType;
  reason: string;
  /** Decimal string; default: what remains refundable. */
  amount?: string;
  evidenceRefs?: string[];
}

export interface UpdateCaseInput {
  /** The operator's move. */
  status?: NonNullable<api.UpdatePostPurchaseCaseRequest['status']>;
  evidenceRefs?: string[];
  note?: string;
}

const casePath = (id: string, suffix = '') => `/v1/post-purchase/cases/${pathSegment(id)}${suffix}`;

export class PurchasesApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/commerce/intents/create → 201 Intent; name it as `intent_id` on a checkout. */
  createIntent(input: CreateIntentInput): Promise<Intent> {
    const body = {
      agent_id: input.agentId,
      description: input.description,
      merchants: input.merchants,
      skus: input.skus,
      budget: { amount: input.budget.amount, currency: input.budget.currency },
      requires_refundability: input.requiresRefundability,
      expires_at: iso(input.expiresAt),
    } satisfies Omit<api.CreateCommerceIntentRequest, 'idempotency_key'>;
    return sendIdempotent(this.transport, { method: 'POST', path: '/v1/commerce/intents/create', body: compact(body) }, input.idempotencyKey);
  }

  /** POST /v1/commerce/feedback/record → 201: once per deal, by its buyer. */
  recordFeedback(dealId: string, rating: number, comment?: string): Promise<Feedback> {
    return this.transport.request({
      method: 'POST',
      path: '/v1/commerce/feedback/record',
      body: compact({ deal_id: dealId, rating, comment } satisfies api.RecordPurchaseFeedbackRequest),
    });
  }

  /** GET /v1/commerce/shadow/compare: each shadow session against its live twin in the window. */
  compareShadow(params: ShadowCompareParams = {}): Promise<ShadowCompare> {
    return this.transport.request({
      method: 'GET',
      path: '/v1/commerce/shadow/compare',
      query: {
        from: params.from === undefined ? undefined : iso(params.from),
        to: params.to === undefined ? undefined : iso(params.to),
        merchant_domain: params.merchantDomain,
        buyer_agent_id: params.buyerAgentId,
        limit: params.limit,
        cursor: params.cursor,
      },
    });
  }

  /** GET /v1/purchases/{deal_id}/timeline (the deal's buyer or the operator). */
  timeline(dealId: string): Promise<PurchaseTimeline> {
    return this.transport.request({ method: 'GET', path: `/v1/purchases/${pathSegment(dealId)}/timeline` });
  }

  /** POST /v1/post-purchase/cases → 201 (the deal's buyer). */
  openCase(input: OpenCaseInput): Promise<PostPurchaseCase> {
    const body = {
      deal_id: input.dealId,
      type: input.type,
      reason: input.reason,
      amount: input.amount,
      evidence_refs: input.evidenceRefs,
    } satisfies api.CreatePostPurchaseCaseRequest;
    return sendIdempotent(this.transport, { method: 'POST', path: '/v1/post-purchase/cases', body: compact(body) }, input.idempotencyKey);
  }

  getCase(caseId: string): Promise<PostPurchaseCase> {
    return this.transport.request({ method: 'GET', path: casePath(caseId) });
  }

  /** POST /v1/post-purchase/cases/{id}: `refund_receipt` is set when this update credited the buyer. */
  updateCase(caseId: string, input: UpdateCaseInput): Promise<CaseUpdate> {
    const body = { status: input.status, evidence_refs: input.evidenceRefs, note: input.note } satisfies api.UpdatePostPurchaseCaseRequest;
    return this.transport.request({ method: 'POST', path: casePath(caseId), body: compact(body) });
  }

  caseEvents(caseId: string, params: PageParams = {}): Promise<Page<CaseEvent>> {
    return this.transport.request({ method: 'GET', path: casePath(caseId, '/events'), query: { limit: params.limit, cursor: params.cursor } });
  }

  iterateCaseEvents(caseId: string): AsyncGenerator<CaseEvent, void, undefined> {
    return paginate((cursor) => this.caseEvents(caseId, { cursor }));
  }
}

/** Operator-only transparency rollups and a session's lifecycle with evidence references. */
export class TransparencyApi {
  constructor(private readonly transport: Transport) {}

  /** GET …/rollups/monthly?window=YYYY-MM: spend, savings, escalations, cases and refunds per currency. */
  monthly(window: string): Promise<api.MonthlyRollup> {
    return this.transport.request({ method: 'GET', path: '/v1/commerce/transparency/rollups/monthly', query: { window } });
  }

  /** GET …/rollups/spend-savings: per buyer agent and currency (window absent: all time). */
  spendSavings(params: PageParams & { window?: string; agentId?: string; currency?: string } = {}): Promise<api.SpendSavingsPage> {
    return this.transport.request({
      method: 'GET',
      path: '/v1/commerce/transparency/rollups/spend-savings',
      query: { window: params.window, agent_id: params.agentId, currency: params.currency, limit: params.limit, cursor: params.cursor },
    });
  }

  /** GET …/transparency/purchases/{commerce_session_id}: lifecycle, evidence refs, purchase, intent, cases. */
  session(commerceSessionId: string): Promise<api.SessionTransparency> {
    return this.transport.request({ method: 'GET', path: `/v1/commerce/transparency/purchases/${pathSegment(commerceSessionId)}` });
  }
}
