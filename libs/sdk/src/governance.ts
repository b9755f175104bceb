// Resale lineage reviews (operator): a resale contract waits for an operator's approval before it
// can be awarded; a rejection cancels it. Buyer alias updates live on `client.contracts.updateBuyerAlias`.
import { MarketBase } from './market-base';
import type { ResaleReview, ResaleReviewStatus } from './market-types';
import type { Page, PageParams } from './pagination';
import { pathSegment } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

export interface ListResaleReviewsParams extends PageParams {
  status?: ResaleReviewStatus;
  contractId?: string;
}

export interface DecideResaleReviewInput extends Idempotent {
  decision: api.DecideResaleReviewRequest['decision'];
  /** 1–500 characters, kept in the audit log. */
  reason: string;
}

const BASE = '/v1/contracts/resale-lineage/review-decisions';

export class ResaleReviewsApi extends MarketBase {
  /** GET /v1/contracts/resale-lineage/review-decisions (operator). */
  list(params: ListResaleReviewsParams = {}): Promise<Page<ResaleReview>> {
    return this.read(BASE, { limit: params.limit, cursor: params.cursor, status: params.status, contract_id: params.contractId });
  }

  get(decisionRef: string): Promise<ResaleReview> {
    return this.read(`${BASE}/${pathSegment(decisionRef)}`);
  }

  /** POST …/review-decisions/{decision_ref} (operator): approve, or reject (cancels the contract). Twice → 409 invalid_state. */
  decide(decisionRef: string, input: DecideResaleReviewInput): Promise<ResaleReview> {
    return this.post(`${BASE}/${pathSegment(decisionRef)}`, { decision: input.decision, reason: input.reason } satisfies api.DecideResaleReviewRequest, input.idempotencyKey);
  }
}
