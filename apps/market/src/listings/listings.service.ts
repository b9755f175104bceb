import { errors, newId } from '@exchange/platform';
import { isUniqueViolation } from '@exchange/db';
import * as listingsRepo from './listings.repo';
import type { Page } from '../data/repo-kit';
import { resolveParty, type Caller } from '../domain/caller';
import type { Listing, Verifier, VerifierListing } from '../domain/model';
import * as v from '../domain/validation';
import { events } from '../events/market.events';
import type { MarketRuntime } from '../service/runtime';
import { inTransaction, notFound, pageQuery, type PageRequest } from '../service/service-kit';

type MoneyInput = { amount: string; currency: string } | undefined;

export interface NewListing {
  sellerId: string;
  title: string;
  description: string;
  tags: readonly string[];
  price: MoneyInput;
  turnaround?: string;
}

export interface NewVerifier {
  verifierId: string;
  name: string;
  description: string;
  tags: readonly string[];
  fee?: MoneyInput;
}

export interface NewVerifierListing {
  verifierId: string;
  title: string;
  tags: readonly string[];
  price: MoneyInput;
  turnaround: string;
}

export type ListingsDeps = Pick<MarketRuntime, 'pool' | 'notify' | 'clock' | 'agents'>;

/**
 * What sellers and verifiers advertise: listings, verifier profiles and verifier listings. No
 * contract, no money: plain validated inserts with their events, and paged reads.
 */
export class ListingsService {
  constructor(private readonly ctx: ListingsDeps) {}

  private get pool() {
    return this.ctx.pool;
  }

  private tx<T>(fn: Parameters<typeof inTransaction<T>>[1]): Promise<T> {
    return inTransaction(this.ctx, fn);
  }

  // ---- listings ----

  async createListing(req: NewListing, caller: Caller): Promise<Listing> {
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
      await listingsRepo.insertListing(client, listing);
      await events.listing(client, listing, caller);
    });
    return listing;
  }

  async getListing(listingId: string): Promise<Listing> {
    const l = await listingsRepo.getListing(this.pool, listingId);
    if (!l) throw notFound('listing', listingId);
    return l;
  }

  listListings(req: { tag?: string; page?: PageRequest }): Promise<Page<Listing>> {
    return listingsRepo.listListings(this.pool, { tag: req.tag || undefined }, pageQuery(req.page));
  }

  // ---- verifiers ----

  async registerVerifier(req: NewVerifier, caller: Caller): Promise<Verifier> {
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
        await listingsRepo.insertVerifier(client, verifier);
      } catch (err) {
        if (isUniqueViolation(err)) throw errors.alreadyExists('verifier_exists', `${verifierId} is already a registered verifier`);
        throw err;
      }
      await events.verifier(client, verifier, caller);
    });
    return verifier;
  }

  listVerifiers(req: { page?: PageRequest }): Promise<Page<Verifier>> {
    return listingsRepo.listVerifiers(this.pool, pageQuery(req.page));
  }

  async createVerifierListing(req: NewVerifierListing, caller: Caller): Promise<VerifierListing> {
    const now = this.ctx.clock();
    const verifierId = resolveParty(caller, 'verifier_id', req.verifierId);
    const title = v.text('title', req.title, 1, 200);
    const tags = v.tags(req.tags);
    const price = v.money('price', req.price);
    const turnaround = v.turnaround(req.turnaround);
    if (!(await listingsRepo.getVerifier(this.pool, verifierId))) throw notFound('verifier', verifierId);
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
      await listingsRepo.insertVerifierListing(client, listing);
      await events.verifierListing(client, listing, caller);
    });
    return listing;
  }

  listVerifierListings(req: { verifierId?: string; page?: PageRequest }): Promise<Page<VerifierListing>> {
    return listingsRepo.listVerifierListings(this.pool, { verifierId: req.verifierId || undefined }, pageQuery(req.page));
  }
}
