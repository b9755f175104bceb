import { unary } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { caller, type HandlerDeps } from '../grpc/handler-kit';
import { idempotent } from '../grpc/idempotency';
import { toProtoListing, toProtoVerifier, toProtoVerifierListing } from './listings.mapper';
import type { ListingsService } from './listings.service';

const pageInfo = (nextCursor: string | null) => ({ nextCursor: nextCursor ?? '' });

type ListingRpcs =
  | 'createListing'
  | 'getListing'
  | 'listListings'
  | 'registerVerifier'
  | 'listVerifiers'
  | 'createVerifierListing'
  | 'listVerifierListings';

/** The MarketService RPCs of listings and verifiers: proto in, proto out (the stored idempotent answer is the proto). */
export function listingsHandlers(s: ListingsService, deps: HandlerDeps): Pick<marketV1.MarketServiceServer, ListingRpcs> {
  const logger = deps.logger;
  return {
    createListing: unary(logger, 'CreateListing', (req: marketV1.CreateListingRequest, call) =>
      idempotent(deps, caller(call), 'CreateListing', req, marketV1.CreateListingRequest.toJSON(req), marketV1.CreateListingResponse, async () => ({
        listing: toProtoListing(await s.createListing(req, caller(call))),
        idempotentReplayed: false,
      })),
    ),
    getListing: unary(logger, 'GetListing', async (req: marketV1.GetListingRequest) => ({ listing: toProtoListing(await s.getListing(req.listingId)) })),
    listListings: unary(logger, 'ListListings', async (req: marketV1.ListListingsRequest) => {
      const page = await s.listListings(req);
      return { listings: page.data.map(toProtoListing), page: pageInfo(page.nextCursor) };
    }),
    registerVerifier: unary(logger, 'RegisterVerifier', (req: marketV1.RegisterVerifierRequest, call) =>
      idempotent(deps, caller(call), 'RegisterVerifier', req, marketV1.RegisterVerifierRequest.toJSON(req), marketV1.RegisterVerifierResponse, async () => ({
        verifier: toProtoVerifier(await s.registerVerifier(req, caller(call))),
        idempotentReplayed: false,
      })),
    ),
    listVerifiers: unary(logger, 'ListVerifiers', async (req: marketV1.ListVerifiersRequest) => {
      const page = await s.listVerifiers(req);
      return { verifiers: page.data.map(toProtoVerifier), page: pageInfo(page.nextCursor) };
    }),
    createVerifierListing: unary(logger, 'CreateVerifierListing', (req: marketV1.CreateVerifierListingRequest, call) =>
      idempotent(
        deps,
        caller(call),
        'CreateVerifierListing',
        req,
        marketV1.CreateVerifierListingRequest.toJSON(req),
        marketV1.CreateVerifierListingResponse,
        async () => ({ verifierListing: toProtoVerifierListing(await s.createVerifierListing(req, caller(call))), idempotentReplayed: false }),
      ),
    ),
    listVerifierListings: unary(logger, 'ListVerifierListings', async (req: marketV1.ListVerifierListingsRequest) => {
      const page = await s.listVerifierListings(req);
      return { verifierListings: page.data.map(toProtoVerifierListing), page: pageInfo(page.nextCursor) };
    }),
  };
}
