import type { CallContext } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import type { ProtoFakeOverrides } from '@exchange/testing';
import type { MarketKit } from './fake-market-kit';

// MarketService: contracts, listings and offers, built from the requests and kept in the kit.

const M = marketV1;
type Overrides = ProtoFakeOverrides<typeof marketV1.MarketServiceService>;

export function tradeHandlers(kit: MarketKit): Overrides {
  const { contracts, listings, offers, id, now, party, idempotent, find, update, pageOf } = kit;
  return {
    async createContract(req: marketV1.CreateContractRequest, ctx: CallContext) {
      return idempotent('createContract', req, ctx, () => {
        const contract: marketV1.Contract = {
          contractId: id('ctr'),
          buyerId: party(req.buyerId, ctx),
          title: req.title,
          description: req.description,
          tags: req.tags,
          // Left out with a template: the fake "inherits" fixed values.
          budget: req.budget ?? { amount: '50', currency: 'CREDIT' },
          deadline: req.deadline ?? new Date('2030-01-01T00:00:00.000Z'),
          acceptanceCriteria: req.acceptanceCriteria,
          verificationMode: req.verificationMode || M.VerificationMode.VERIFICATION_MODE_BUYER,
          buyerPrivate: req.buyerPrivate,
          buyerAlias: req.buyerPrivate ? 'anon:fakealiasbuy' : undefined,
          buyerAliasGeneration: 0,
          labels: req.labels,
          inputRefs: req.inputRefs,
          sandbox: false,
          verifierId: req.verifierId,
          listingId: req.listingId,
          templateId: req.templateId,
          workProductTemplateId: req.workProductTemplateId,
          fixtureId: req.fixtureId,
          resaleOf: req.resaleOf,
          status: M.ContractStatus.CONTRACT_STATUS_OPEN,
          escrowStatus: M.EscrowStatus.ESCROW_STATUS_NONE,
          createdAt: now(),
          updatedAt: now(),
        };
        contracts.set(contract.contractId, contract);
        return { contract, idempotentReplayed: false };
      });
    },
    async getContract(req: marketV1.GetContractRequest) {
      return { contract: find(contracts, 'contract', req.contractId) };
    },
    async listContracts() {
      const { rows, page } = pageOf([...contracts.values()]);
      return { contracts: rows, page };
    },
    async cancelContract(req: marketV1.CancelContractRequest, ctx: CallContext) {
      return idempotent('cancelContract', req, ctx, () => {
        const c = find(contracts, 'contract', req.contractId);
        const contract = update(contracts, req.contractId, c, { status: M.ContractStatus.CONTRACT_STATUS_CANCELLED, cancelReason: req.reason });
        return { contract, idempotentReplayed: false };
      });
    },
    async createListing(req: marketV1.CreateListingRequest, ctx: CallContext) {
      return idempotent('createListing', req, ctx, () => {
        const listing: marketV1.Listing = {
          listingId: id('lst'),
          sellerId: party(req.sellerId, ctx),
          title: req.title,
          description: req.description,
          tags: req.tags,
          price: req.price,
          turnaround: req.turnaround,
          createdAt: now(),
          updatedAt: now(),
        };
        listings.set(listing.listingId, listing);
        return { listing, idempotentReplayed: false };
      });
    },
    async getListing(req: marketV1.GetListingRequest) {
      return { listing: find(listings, 'listing', req.listingId) };
    },
    async listListings(req: marketV1.ListListingsRequest) {
      const { rows, page } = pageOf([...listings.values()].filter((l) => req.tag === undefined || l.tags.includes(req.tag)));
      return { listings: rows, page };
    },
    async submitOffer(req: marketV1.SubmitOfferRequest, ctx: CallContext) {
      return idempotent('submitOffer', req, ctx, () => {
        find(contracts, 'contract', req.contractId);
        const offer: marketV1.Offer = {
          offerId: id('ofr'),
          contractId: req.contractId,
          sellerId: party(req.sellerId, ctx),
          price: req.price,
          eta: req.eta,
          terms: req.terms,
          status: M.OfferStatus.OFFER_STATUS_SUBMITTED,
          createdAt: now(),
          updatedAt: now(),
        };
        offers.set(offer.offerId, offer);
        return { offer, idempotentReplayed: false };
      });
    },
    async getOffer(req: marketV1.GetOfferRequest) {
      return { offer: find(offers, 'offer', req.offerId) };
    },
    async listOffers(req: marketV1.ListOffersRequest) {
      find(contracts, 'contract', req.contractId);
      const { rows, page } = pageOf([...offers.values()].filter((o) => o.contractId === req.contractId));
      return { offers: rows, page };
    },
    async withdrawOffer(req: marketV1.WithdrawOfferRequest, ctx: CallContext) {
      return idempotent('withdrawOffer', req, ctx, () => {
        const o = find(offers, 'offer', req.offerId);
        return { offer: update(offers, req.offerId, o, { status: M.OfferStatus.OFFER_STATUS_WITHDRAWN }), idempotentReplayed: false };
      });
    },
    async awardOffer(req: marketV1.AwardOfferRequest, ctx: CallContext) {
      return idempotent('awardOffer', req, ctx, () => {
        const c = find(contracts, 'contract', req.contractId);
        const o = find(offers, 'offer', req.offerId);
        const offer = update(offers, o.offerId, o, { status: M.OfferStatus.OFFER_STATUS_AWARDED });
        const contract = update(contracts, c.contractId, c, {
          status: M.ContractStatus.CONTRACT_STATUS_AWARDED,
          sellerId: o.sellerId,
          awardedOfferId: o.offerId,
          price: o.price,
          holdId: id('hld'),
          escrowStatus: M.EscrowStatus.ESCROW_STATUS_HELD,
          awardedAt: now(),
        });
        return { contract, offer, idempotentReplayed: false };
      });
    },
  };
}
