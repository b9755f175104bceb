import { unary } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { caller, type HandlerDeps } from '../grpc/handler-kit';
import { idempotent } from '../grpc/idempotency';
import * as map from './offers.mapper';
import type { OffersService } from './offers.service';

type OffersRpcs = 'submitOffer' | 'getOffer' | 'listOffers' | 'withdrawOffer' | 'awardOffer';

/** The MarketService RPCs of offers (an award answers the contract too): proto in, proto out (the stored idempotent answer is the proto). */
export function offersHandlers(s: OffersService, deps: HandlerDeps): Pick<marketV1.MarketServiceServer, OffersRpcs> {
  const logger = deps.logger;
  return {
    submitOffer: unary(logger, 'SubmitOffer', (req: marketV1.SubmitOfferRequest, ctx) =>
      idempotent(deps, caller(ctx), 'SubmitOffer', req, marketV1.SubmitOfferRequest.toJSON(req), marketV1.SubmitOfferResponse, async () => ({
        offer: map.toProtoOffer(await s.submitOffer(req, caller(ctx))),
        idempotentReplayed: false,
      })),
    ),
    getOffer: unary(logger, 'GetOffer', async (req: marketV1.GetOfferRequest) => ({ offer: map.toProtoOffer(await s.getOffer(req.offerId)) })),
    listOffers: unary(logger, 'ListOffers', async (req: marketV1.ListOffersRequest) => {
      const page = await s.listOffers({ ...req, status: () => map.optionalEnum(map.offerStatus, req.status, 'status') });
      return { offers: page.data.map(map.toProtoOffer), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    withdrawOffer: unary(logger, 'WithdrawOffer', (req: marketV1.WithdrawOfferRequest, ctx) =>
      idempotent(deps, caller(ctx), 'WithdrawOffer', req, marketV1.WithdrawOfferRequest.toJSON(req), marketV1.WithdrawOfferResponse, async () => ({
        offer: map.toProtoOffer(await s.withdrawOffer(req.offerId, caller(ctx))),
        idempotentReplayed: false,
      })),
    ),
    awardOffer: unary(logger, 'AwardOffer', (req: marketV1.AwardOfferRequest, ctx) =>
      idempotent(deps, caller(ctx), 'AwardOffer', req, marketV1.AwardOfferRequest.toJSON(req), marketV1.AwardOfferResponse, async () => {
        const { contract, offer } = await s.awardOffer(req, caller(ctx));
        return { contract: map.toProtoContract(contract), offer: map.toProtoOffer(offer), idempotentReplayed: false };
      }),
    ),
  };
}
