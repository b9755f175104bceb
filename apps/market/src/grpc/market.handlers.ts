import { unary, type CallContext, type Logger } from '@exchange/platform';
import type { marketV1 } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import type { ListingsService } from '../service/listings.service';
import type { MarketService } from '../service/market.service';

const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, agentId: ctx.agentId, traceId: ctx.traceId });

/** proto in, proto out: every rule lives in the service; errors and logging in platform's `unary`. */
export function marketHandlers(s: MarketService, listings: ListingsService, logger: Logger): marketV1.MarketServiceServer {
  return {
    createContract: unary(logger, 'CreateContract', (req: marketV1.CreateContractRequest, ctx) => s.createContract(req, caller(ctx))),
    getContract: unary(logger, 'GetContract', (req: marketV1.GetContractRequest, ctx) => s.getContract(req, caller(ctx))),
    listContracts: unary(logger, 'ListContracts', (req: marketV1.ListContractsRequest, ctx) => s.listContracts(req, caller(ctx))),
    cancelContract: unary(logger, 'CancelContract', (req: marketV1.CancelContractRequest, ctx) => s.cancelContract(req, caller(ctx))),

    createListing: unary(logger, 'CreateListing', (req: marketV1.CreateListingRequest, ctx) => listings.createListing(req, caller(ctx))),
    getListing: unary(logger, 'GetListing', (req: marketV1.GetListingRequest) => listings.getListing(req)),
    listListings: unary(logger, 'ListListings', (req: marketV1.ListListingsRequest) => listings.listListings(req)),

    submitOffer: unary(logger, 'SubmitOffer', (req: marketV1.SubmitOfferRequest, ctx) => s.submitOffer(req, caller(ctx))),
    getOffer: unary(logger, 'GetOffer', (req: marketV1.GetOfferRequest) => s.getOffer(req)),
    listOffers: unary(logger, 'ListOffers', (req: marketV1.ListOffersRequest) => s.listOffers(req)),
    withdrawOffer: unary(logger, 'WithdrawOffer', (req: marketV1.WithdrawOfferRequest, ctx) => s.withdrawOffer(req, caller(ctx))),
    awardOffer: unary(logger, 'AwardOffer', (req: marketV1.AwardOfferRequest, ctx) => s.awardOffer(req, caller(ctx))),

    submitResult: unary(logger, 'SubmitResult', (req: marketV1.SubmitResultRequest, ctx) => s.submitResult(req, caller(ctx))),
    getResult: unary(logger, 'GetResult', (req: marketV1.GetResultRequest) => s.getResult(req)),
    listResults: unary(logger, 'ListResults', (req: marketV1.ListResultsRequest) => s.listResults(req)),

    submitVerification: unary(logger, 'SubmitVerification', (req: marketV1.SubmitVerificationRequest, ctx) => s.submitVerification(req, caller(ctx))),
    getLatestVerification: unary(logger, 'GetLatestVerification', (req: marketV1.GetLatestVerificationRequest) => s.getLatestVerification(req)),
    listVerificationReports: unary(logger, 'ListVerificationReports', (req: marketV1.ListVerificationReportsRequest) =>
      s.listVerificationReports(req),
    ),
    getVerificationMetrics: unary(logger, 'GetVerificationMetrics', (req: marketV1.GetVerificationMetricsRequest) => s.getVerificationMetrics(req)),
    registerVerifier: unary(logger, 'RegisterVerifier', (req: marketV1.RegisterVerifierRequest, ctx) => listings.registerVerifier(req, caller(ctx))),
    listVerifiers: unary(logger, 'ListVerifiers', (req: marketV1.ListVerifiersRequest) => listings.listVerifiers(req)),
    createVerifierListing: unary(logger, 'CreateVerifierListing', (req: marketV1.CreateVerifierListingRequest, ctx) =>
      listings.createVerifierListing(req, caller(ctx)),
    ),
    listVerifierListings: unary(logger, 'ListVerifierListings', (req: marketV1.ListVerifierListingsRequest) => listings.listVerifierListings(req)),

    openDispute: unary(logger, 'OpenDispute', (req: marketV1.OpenDisputeRequest, ctx) => s.openDispute(req, caller(ctx))),
    getDispute: unary(logger, 'GetDispute', (req: marketV1.GetDisputeRequest) => s.getDispute(req)),
    listDisputes: unary(logger, 'ListDisputes', (req: marketV1.ListDisputesRequest) => s.listDisputes(req)),
    resolveDispute: unary(logger, 'ResolveDispute', (req: marketV1.ResolveDisputeRequest, ctx) => s.resolveDispute(req, caller(ctx))),
  };
}
