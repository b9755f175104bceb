import { percentile } from './percentiles';
import { jaccard } from './recommend';

// How a seller's history lines up with a contract (tags and price), from the seller's profile.

/** The seller's listing sharing most tags with the contract; ties: the contract's currency, lower price, listing id. */
export function bestListing(listings: readonly SellerListing[], tags: readonly string[], currency: string): SellerListing | null {
  let best: { l: SellerListing; key: [number, number, bigint, string] } | null = null;
  for (const l of listings) {
    const key: [number, number, bigint, string] = [jaccard(l.tags, tags), l.currency === currency ? 1 : 0, l.price, l.listingId];
    if (!best || better(key, best.key)) best = { l, key };
  }
  return best?.l ?? null;
}

function better(a: [number, number, bigint, string], b: [number, number, bigint, string]): boolean {
  if (a[0] !== b[0]) return a[0] > b[0];
  if (a[1] !== b[1]) return a[1] > b[1];
  if (a[2] !== b[2]) return a[2] < b[2];
  return a[3] < b[3];
}

/** The seller's tags: its listings' tags and those of the contracts it was awarded. */
export function sellerTags(p: SellerProfile): string[] {
  return [...new Set([...p.listings.flatMap((l) => l.tags), ...p.wonTags])];
}

/** The price the seller likely asks in `currency`: its best listing there, else its median awarded price there, else null. */
export function referencePrice(p: SellerProfile, tags: readonly string[], currency: string): bigint | null {
  const listing = bestListing(
    p.listings.filter((l) => l.currency === currency),
    tags,
    currency,
  );
  if (listing) return listing.price;
  const awarded = p.awardedPrices.get(currency);
  if (!awarded || awarded.length === 0) return null;
  return percentile([...awarded].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), 1n, 2n);
}

export interface SellerListing {
  listingId: string;
  tags: string[];
  price: bigint;
  currency: string;
}

export interface SellerProfile {
  sellerId: string;
  listings: SellerListing[];
  /** Tags of the contracts it was awarded. */
  wonTags: string[];
  /** Prices it was awarded at, per currency. */
  awardedPrices: Map<string, bigint[]>;
  /** Contracts it settled as seller (not corrected). */
  settled: number;
  lastActivity: Date | null;
}
