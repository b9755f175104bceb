// Verification area: verifier profiles (`client.verifiers`), what they offer
// (`client.verifiers.listings`); the verification metrics are `client.telemetry.verification`. Reports are
// submitted on a contract: `client.contracts.verify`.
import { MarketBase, money } from './market-base';
import type { Money, Verifier, VerifierListing } from './market-types';
import type { Page, PageParams } from './pagination';
import type { Transport } from './transport';
import type { Idempotent } from './wallets';
import type { api } from './wire';

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

/** `client.verifiers.listings`: what verifiers offer. */
export class VerifierListingsApi extends MarketBase {
  /** POST /v1/verifier-listings → 201 VerifierListing (the verifier must have a profile). */
  create(input: CreateVerifierListingInput): Promise<VerifierListing> {
    return this.post(
      '/v1/verifier-listings',
      {
        verifier_id: input.verifierId,
        title: input.title,
        tags: input.tags,
        price: money(input.price),
        turnaround: input.turnaround,
      } satisfies api.CreateVerifierListingRequest,
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
      {
        verifier_id: input.verifierId,
        name: input.name,
        description: input.description,
        tags: input.tags,
        fee: input.fee ? money(input.fee) : undefined,
      } satisfies api.RegisterVerifierRequest,
      input.idempotencyKey,
    );
  }

  list(params: PageParams = {}): Promise<Page<Verifier>> {
    return this.read('/v1/verifiers', { limit: params.limit, cursor: params.cursor });
  }
}
