// Offers: submitted on a contract (`client.contracts.offers`), read and withdrawn by id (`client.offers`).
import { contractPath, iso, MarketBase, money } from './market-base';
import type { Money, Offer, OfferStatus } from './market-types';
import type { Page, PageParams } from './pagination';
import { pathSegment } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

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

/** `client.contracts.offers`: offers on one contract. */
export class ContractOffersApi extends MarketBase {
  /** POST /v1/contracts/{id}/offers → 201 Offer. */
  submit(contractId: string, input: SubmitOfferInput): Promise<Offer> {
    return this.post(
      contractPath(contractId, '/offers'),
      { seller_id: input.sellerId, price: money(input.price), eta: iso(input.eta), terms: input.terms } satisfies api.SubmitOfferRequest,
      input.idempotencyKey,
    );
  }

  list(contractId: string, params: ListOffersParams = {}): Promise<Page<Offer>> {
    return this.read(contractPath(contractId, '/offers'), { limit: params.limit, cursor: params.cursor, seller_id: params.sellerId, status: params.status });
  }
}

export class OffersApi extends MarketBase {
  get(offerId: string): Promise<Offer> {
    return this.read(`/v1/offers/${pathSegment(offerId)}`);
  }

  /** POST /v1/offers/{id}/withdraw (the offer's seller or an operator; only a submitted offer). */
  withdraw(offerId: string, input: Idempotent = {}): Promise<Offer> {
    return this.post(`/v1/offers/${pathSegment(offerId)}/withdraw`, {} satisfies api.WithdrawOfferRequest, input.idempotencyKey);
  }
}
