import type { SellerProfile } from './insights.repo';
import { bestListing, referencePrice, sellerTags } from './seller-fit';

const profile = (over: Partial<SellerProfile> = {}): SellerProfile => ({
  sellerId: 's',
  listings: [],
  wonTags: [],
  awardedPrices: new Map(),
  settled: 0,
  lastActivity: null,
  ...over,
});

describe('seller fit', () => {
  const listings = [
    { listingId: 'lst_b', tags: ['nlp'], price: 50n, currency: 'CREDIT' },
    { listingId: 'lst_a', tags: ['nlp', 'summary'], price: 90n, currency: 'CREDIT' },
    { listingId: 'lst_c', tags: ['nlp', 'summary'], price: 10n, currency: 'EUR' },
  ];

  it('bestListing: most shared tags, then the contract currency, then the lower price', () => {
    expect(bestListing(listings, ['nlp', 'summary'], 'CREDIT')?.listingId).toBe('lst_a');
    expect(bestListing(listings, ['nlp', 'summary'], 'EUR')?.listingId).toBe('lst_c');
    expect(bestListing([], ['x'], 'CREDIT')).toBeNull();
  });

  it('sellerTags: listings ∪ awarded contracts, once each', () => {
    expect(sellerTags(profile({ listings, wonTags: ['code', 'nlp'] })).sort()).toEqual(['code', 'nlp', 'summary']);
  });

  it('referencePrice: best listing in the currency, else the median awarded price, else null', () => {
    expect(referencePrice(profile({ listings }), ['nlp'], 'CREDIT')).toBe(50n);
    expect(referencePrice(profile({ awardedPrices: new Map([['CREDIT', [30n, 10n, 20n, 40n]]]) }), ['nlp'], 'CREDIT')).toBe(25n);
    expect(referencePrice(profile({ listings }), ['nlp'], 'USD')).toBeNull();
  });
});
