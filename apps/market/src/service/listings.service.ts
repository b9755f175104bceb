import { errors, newId } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { isUniqueViolation } from '../data/db';
import * as repo from '../data/market.repo';
import { resolveParty, type Caller } from '../domain/caller';
import type { Listing, Verifier, VerifierListing } from '../domain/model';
import * as v from '../domain/validation';
import { events } from '../events/market.events';
import * as map from '../grpc/market.mapper';
import type { MarketContext } from '../saga/context';
import { idempotent } from './idempotency';
import { inTransaction, notFound, pageQuery } from './service-kit';

/**
 * What sellers and verifiers advertise: listings, verifier profiles and verifier listings. No
 * contract, no money: plain validated inserts with their events, and paged reads.
 */
export class ListingsService {
  constructor(private readonly ctx: MarketContext) {}

  private get pool() {
    return this.ctx.pool;
  }

  private tx<T>(fn: Parameters<typeof inTransaction<T>>[1]): Promise<T> {
    return inTransaction(this.ctx, fn);
  }

  // ---- listings ----

  createListing(req: marketV1.CreateListingRequest, caller: Caller): Promise<marketV1.CreateListingResponse> {
    return idempotent(this.ctx, caller, 'CreateListing', req, marketV1.CreateListingRequest.toJSON(req), marketV1.CreateListingResponse, async () => {
      const now = this.ctx.clock();
      const sellerId = resolveParty(caller, 'seller_id', req.sellerId);
      const title = v.text('title', req.title, 1, 200);
      const description = v.text('description', req.description, 0, 20000);
      const tags = v.tags(req.tags);
      const price = v.money('price', req.price);
      const turnaround = req.turnaround === undefined ? null : v.turnaround(req.turnaround);
      await this.ctx.agents.active(sellerId);
      const listing: Listing = {
        listingId: newId('lst'),
        sellerId,
        title,
        description,
        tags,
        price: price.amount,
        currency: price.currency,
        turnaround,
        createdAt: now,
        updatedAt: now,
      };
      await this.tx(async (client) => {
        await repo.insertListing(client, listing);
        await events.listing(client, listing, caller);
      });
      return { listing: map.toProtoListing(listing), idempotentReplayed: false };
    });
  }

  async getListing(req: marketV1.GetListingRequest): Promise<marketV1.GetListingResponse> {
    const l = await repo.getListing(this.pool, req.listingId);
    if (!l) throw notFound('listing', req.listingId);
    return { listing: map.toProtoListing(l) };
  }

  async listListings(req: marketV1.ListListingsRequest): Promise<marketV1.ListListingsResponse> {
    const page = await repo.listListings(this.pool, { tag: req.tag || undefined }, pageQuery(req.page));
    return { listings: page.data.map(map.toProtoListing), page: { nextCursor: page.nextCursor ?? '' } };
  }

  // ---- verifiers ----

  registerVerifier(req: marketV1.RegisterVerifierRequest, caller: Caller): Promise<marketV1.RegisterVerifierResponse> {
    return idempotent(this.ctx, caller, 'RegisterVerifier', req, marketV1.RegisterVerifierRequest.toJSON(req), marketV1.RegisterVerifierResponse, async () => {
      const now = this.ctx.clock();
      const verifierId = resolveParty(caller, 'verifier_id', req.verifierId);
      const name = v.text('name', req.name, 1, 200);
      const description = v.text('description', req.description, 0, 20000);
      const tags = v.tags(req.tags);
      const fee = req.fee === undefined ? null : v.money('fee', req.fee);
      await this.ctx.agents.active(verifierId);
      const verifier: Verifier = { verifierId, name, description, tags, fee, createdAt: now, updatedAt: now };
      await this.tx(async (client) => {
        try {
          await repo.insertVerifier(client, verifier);
        } catch (err) {
          if (isUniqueViolation(err)) throw errors.alreadyExists('verifier_exists', `${verifierId} is already a registered verifier`);
          throw err;
        }
        await events.verifier(client, verifier, caller);
      });
      return { verifier: map.toProtoVerifier(verifier), idempotentReplayed: false };
    });
  }

  async listVerifiers(req: marketV1.ListVerifiersRequest): Promise<marketV1.ListVerifiersResponse> {
    const page = await repo.listVerifiers(this.pool, pageQuery(req.page));
    return { verifiers: page.data.map(map.toProtoVerifier), page: { nextCursor: page.nextCursor ?? '' } };
  }

  createVerifierListing(req: marketV1.CreateVerifierListingRequest, caller: Caller): Promise<marketV1.CreateVerifierListingResponse> {
    return idempotent(
      this.ctx,
      caller,
      'CreateVerifierListing',
      req,
      marketV1.CreateVerifierListingRequest.toJSON(req),
      marketV1.CreateVerifierListingResponse,
      async () => {
        const now = this.ctx.clock();
        const verifierId = resolveParty(caller, 'verifier_id', req.verifierId);
        const title = v.text('title', req.title, 1, 200);
        const tags = v.tags(req.tags);
        const price = v.money('price', req.price);
        const turnaround = v.turnaround(req.turnaround);
        if (!(await repo.getVerifier(this.pool, verifierId))) throw notFound('verifier', verifierId);
        await this.ctx.agents.active(verifierId);
        const listing: VerifierListing = {
          verifierListingId: newId('vrf'),
          verifierId,
          title,
          tags,
          price: price.amount,
          currency: price.currency,
          turnaround,
          createdAt: now,
          updatedAt: now,
        };
        await this.tx(async (client) => {
          await repo.insertVerifierListing(client, listing);
          await events.verifierListing(client, listing, caller);
        });
        return { verifierListing: map.toProtoVerifierListing(listing), idempotentReplayed: false };
      },
    );
  }

  async listVerifierListings(req: marketV1.ListVerifierListingsRequest): Promise<marketV1.ListVerifierListingsResponse> {
    const page = await repo.listVerifierListings(this.pool, { verifierId: req.verifierId || undefined }, pageQuery(req.page));
    return { verifierListings: page.data.map(map.toProtoVerifierListing), page: { nextCursor: page.nextCursor ?? '' } };
  }
}
