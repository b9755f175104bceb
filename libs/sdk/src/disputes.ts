// Disputes: opened on a contract by a party (`client.contracts.disputes`), read and resolved by id (`client.disputes`).
import { contractPath, MarketBase } from './market-base';
import type { Dispute, DisputeOutcome, DisputeStatus } from './market-types';
import type { Page, PageParams } from './pagination';
import { pathSegment } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

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

/** `client.contracts.disputes`: disputes on one contract. */
export class ContractDisputesApi extends MarketBase {
  /** POST /v1/contracts/{id}/disputes → 201 Dispute (the buyer or the awarded seller). */
  open(contractId: string, input: OpenDisputeInput): Promise<Dispute> {
    return this.post(
      contractPath(contractId, '/disputes'),
      { opened_by: input.openedBy, reason: input.reason, evidence_refs: input.evidenceRefs } satisfies api.OpenDisputeRequest,
      input.idempotencyKey,
    );
  }

  list(contractId: string, params: ListDisputesParams = {}): Promise<Page<Dispute>> {
    return this.read(contractPath(contractId, '/disputes'), { limit: params.limit, cursor: params.cursor, opened_by: params.openedBy, status: params.status });
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
      { outcome: input.outcome, seller_share_bps: input.sellerShareBps, rationale: input.rationale } satisfies api.ResolveDisputeRequest,
      input.idempotencyKey,
    );
  }
}
