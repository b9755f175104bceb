import { unary, type CallContext, type Logger } from '@exchange/platform';
import type { marketV1 } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import { listingsHandlers } from '../listings/listings.handlers';
import type { ListingsService } from '../listings/listings.service';
import type { MarketContext } from '../saga/context';
import type { MarketService } from '../service/market.service';

const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, agentId: ctx.agentId, traceId: ctx.traceId });

/** proto in, proto out: every rule lives in the service; errors and logging in platform's `unary`. */
export function marketHandlers(s: MarketService, listings: ListingsService, market: MarketContext, logger: Logger): marketV1.MarketServiceServer {
  return {
    ...listingsHandlers(listings, market, logger),
    createContract: unary(logger, 'CreateContract', (req: marketV1.CreateContractRequest, ctx) => s.contracts.createContract(req, caller(ctx))),
    getContract: unary(logger, 'GetContract', (req: marketV1.GetContractRequest, ctx) => s.contracts.getContract(req, caller(ctx))),
    listContracts: unary(logger, 'ListContracts', (req: marketV1.ListContractsRequest, ctx) => s.contracts.listContracts(req, caller(ctx))),
    cancelContract: unary(logger, 'CancelContract', (req: marketV1.CancelContractRequest, ctx) => s.contracts.cancelContract(req, caller(ctx))),

    submitOffer: unary(logger, 'SubmitOffer', (req: marketV1.SubmitOfferRequest, ctx) => s.offers.submitOffer(req, caller(ctx))),
    getOffer: unary(logger, 'GetOffer', (req: marketV1.GetOfferRequest) => s.offers.getOffer(req)),
    listOffers: unary(logger, 'ListOffers', (req: marketV1.ListOffersRequest) => s.offers.listOffers(req)),
    withdrawOffer: unary(logger, 'WithdrawOffer', (req: marketV1.WithdrawOfferRequest, ctx) => s.offers.withdrawOffer(req, caller(ctx))),
    awardOffer: unary(logger, 'AwardOffer', (req: marketV1.AwardOfferRequest, ctx) => s.offers.awardOffer(req, caller(ctx))),

    submitResult: unary(logger, 'SubmitResult', (req: marketV1.SubmitResultRequest, ctx) => s.results.submitResult(req, caller(ctx))),
    getResult: unary(logger, 'GetResult', (req: marketV1.GetResultRequest) => s.results.getResult(req)),
    listResults: unary(logger, 'ListResults', (req: marketV1.ListResultsRequest) => s.results.listResults(req)),

    submitVerification: unary(logger, 'SubmitVerification', (req: marketV1.SubmitVerificationRequest, ctx) => s.verification.submitVerification(req, caller(ctx))),
    getLatestVerification: unary(logger, 'GetLatestVerification', (req: marketV1.GetLatestVerificationRequest) => s.verification.getLatestVerification(req)),
    listVerificationReports: unary(logger, 'ListVerificationReports', (req: marketV1.ListVerificationReportsRequest) =>
      s.verification.listVerificationReports(req),
    ),
    getVerificationMetrics: unary(logger, 'GetVerificationMetrics', (req: marketV1.GetVerificationMetricsRequest) => s.verification.getVerificationMetrics(req)),

    openDispute: unary(logger, 'OpenDispute', (req: marketV1.OpenDisputeRequest, ctx) => s.disputes.openDispute(req, caller(ctx))),
    getDispute: unary(logger, 'GetDispute', (req: marketV1.GetDisputeRequest) => s.disputes.getDispute(req)),
    listDisputes: unary(logger, 'ListDisputes', (req: marketV1.ListDisputesRequest) => s.disputes.listDisputes(req)),
    resolveDispute: unary(logger, 'ResolveDispute', (req: marketV1.ResolveDisputeRequest, ctx) => s.disputes.resolveDispute(req, caller(ctx))),
  };
}
