import { CTR, Key, LongText, MoneyOut, OFR, Page, partyNote, SELLER, T, T_DEADLINE } from '../../lib/market/market-kit';
import { Money, OFFER_STATUSES } from '../../lib/market/market.schemas';
import { AgentId, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of Offers (spec §4; shared market vocabulary in lib/market/market.schemas.ts).

export const SubmitOfferBody = Type.Object(
  {
    seller_id: Type.Optional({ ...AgentId, description: `The seller. ${partyNote('seller_id')}` }),
    price: { ...Money, description: 'In the budget currency (else 400 `currency_mismatch`), at most the budget (else 400 `price_exceeds_budget`)' },
    eta: {
      ...Timestamp,
      description: 'When the result will be delivered: in the future and not after the contract deadline (else 400 `invalid_eta`, the latter with `deadline`)',
    },
    terms: Type.Optional(LongText('Free text (default "")', 0)),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [{ price: { amount: '90', currency: 'CREDIT' }, eta: T_DEADLINE, terms: 'Delivered as JSON', idempotency_key: 'offer-001' }],
  },
);
export type SubmitOfferBodyJson = Static<typeof SubmitOfferBody>;

const offerExample = {
  offer_id: OFR,
  contract_id: CTR,
  seller_id: SELLER,
  price: { amount: '90', currency: 'CREDIT' },
  eta: T_DEADLINE,
  terms: 'Delivered as JSON',
  status: 'submitted',
  created_at: T,
  updated_at: T,
};
export const Offer = Type.Object(
  {
    offer_id: Type.String(),
    contract_id: Type.String(),
    seller_id: Type.String(),
    price: MoneyOut,
    eta: Timestamp,
    terms: Type.String(),
    status: StringEnum(OFFER_STATUSES),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A seller’s offer on an open contract', examples: [offerExample] },
);
export type OfferJson = Static<typeof Offer>;
export const OfferPage = Page(Offer, 'A page of offers', offerExample);
