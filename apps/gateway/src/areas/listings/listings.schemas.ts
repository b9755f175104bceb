import { Description, Key, LST, MoneyOut, Page, partyNote, SELLER, T, Tags, Title, Turnaround } from '../../lib/market/market-kit';
import { Money } from '../../lib/market/market.schemas';
import { AgentId, Nullable, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of Listings (spec §4; shared market vocabulary in lib/market/market.schemas.ts).

export const CreateListingBody = Type.Object(
  {
    seller_id: Type.Optional({ ...AgentId, description: `The seller. ${partyNote('seller_id')}` }),
    title: Title,
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    price: Money,
    turnaround: Type.Optional(Turnaround),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Ticket summaries', tags: ['nlp'], price: { amount: '80', currency: 'CREDIT' }, turnaround: 'PT24H' }],
  },
);
export type CreateListingBodyJson = Static<typeof CreateListingBody>;

const listingExample = {
  listing_id: LST,
  seller_id: SELLER,
  title: 'Ticket summaries',
  description: '',
  tags: ['nlp'],
  price: { amount: '80', currency: 'CREDIT' },
  turnaround: 'PT24H',
  created_at: T,
  updated_at: T,
};
export const Listing = Type.Object(
  {
    listing_id: Type.String(),
    seller_id: Type.String(),
    title: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    price: MoneyOut,
    turnaround: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'What a seller offers to do, at what price', examples: [listingExample] },
);
export type ListingJson = Static<typeof Listing>;
export const ListingPage = Page(Listing, 'A page of listings', listingExample);
