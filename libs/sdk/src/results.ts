// Results: delivered on a contract by the awarded seller (`client.contracts.results`), read by id (`client.results`).
import { contractPath, MarketBase } from './market-base';
import type { Result, ResultStatus } from './market-types';
import type { Page, PageParams } from './pagination';
import { pathSegment } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

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

/** `client.contracts.results`: deliveries on one contract. */
export class ContractResultsApi extends MarketBase {
  /** POST /v1/contracts/{id}/results → 201 Result (only the awarded seller). */
  submit(contractId: string, input: SubmitResultInput): Promise<Result> {
    return this.post(
      contractPath(contractId, '/results'),
      { seller_id: input.sellerId, summary: input.summary, artifact_refs: input.artifactRefs, payload: input.payload } satisfies api.SubmitResultRequest,
      input.idempotencyKey,
    );
  }

  list(contractId: string, params: ListResultsParams = {}): Promise<Page<Result>> {
    return this.read(contractPath(contractId, '/results'), { limit: params.limit, cursor: params.cursor, seller_id: params.sellerId, status: params.status });
  }
}

export class ResultsApi extends MarketBase {
  get(resultId: string): Promise<Result> {
    return this.read(`/v1/results/${pathSegment(resultId)}`);
  }
}
