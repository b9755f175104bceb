// Listings: what sellers offer (`client.listings`).
import { MarketBase, money } from './market-base';
import type { Listing, Money } from './market-types';
import type { Page, PageParams } from './pagination';
import { pathSegment } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

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

export class ListingsApi extends MarketBase {
  /** POST /v1/listings → 201 Listing. */
  create(input: CreateListingInput): Promise<Listing> {
    return this.post(
      '/v1/listings',
      {
        seller_id: input.sellerId,
        title: input.title,
        description: input.description,
        tags: input.tags,
        price: money(input.price),
        turnaround: input.turnaround,
      } satisfies api.CreateListingRequest,
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
