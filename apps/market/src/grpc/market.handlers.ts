import { unary, type CallContext, type Logger } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import { listingsHandlers } from '../listings/listings.handlers';
import type { ListingsService } from '../listings/listings.service';
import type { MarketContext } from '../saga/context';
import { idempotent } from '../service/idempotency';
import * as map from './market.mapper';
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

    submitResult: unary(logger, 'SubmitResult', (req: marketV1.SubmitResultRequest, ctx) =>
      idempotent(market, caller(ctx), 'SubmitResult', req, marketV1.SubmitResultRequest.toJSON(req), marketV1.SubmitResultResponse, async () => {
        const { result, contract } = await s.results.submitResult(req, caller(ctx));
        return { result: map.toProtoResult(result), contract: map.toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
    getResult: unary(logger, 'GetResult', async (req: marketV1.GetResultRequest) => ({ result: map.toProtoResult(await s.results.getResult(req.resultId)) })),
    listResults: unary(logger, 'ListResults', async (req: marketV1.ListResultsRequest) => {
      const page = await s.results.listResults({ ...req, status: () => map.optionalEnum(map.resultStatus, req.status, 'status') });
      return { results: page.data.map(map.toProtoResult), page: { nextCursor: page.nextCursor ?? '' } };
    }),

    submitVerification: unary(logger, 'SubmitVerification', (req: marketV1.SubmitVerificationRequest, ctx) =>
      idempotent(market, caller(ctx), 'SubmitVerification', req, marketV1.SubmitVerificationRequest.toJSON(req), marketV1.SubmitVerificationResponse, async () => {
        const input = { ...req, verdict: () => map.requiredEnum(map.verdict, req.verdict, 'verdict') };
        const { report, contract } = await s.verification.submitVerification(input, caller(ctx));
        return { report: map.toProtoReport(report), contract: map.toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
    getLatestVerification: unary(logger, 'GetLatestVerification', async (req: marketV1.GetLatestVerificationRequest) => ({
      report: map.toProtoReport(await s.verification.getLatestVerification(req.contractId)),
    })),
    listVerificationReports: unary(logger, 'ListVerificationReports', async (req: marketV1.ListVerificationReportsRequest) => {
      const page = await s.verification.listVerificationReports(req);
      return { reports: page.data.map(map.toProtoReport), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    getVerificationMetrics: unary(logger, 'GetVerificationMetrics', async (req: marketV1.GetVerificationMetricsRequest) => {
      const m = await s.verification.getVerificationMetrics(map.optionalEnum(map.metricsWindow, req.window, 'window') ?? 'all');
      return { ...m, window: map.metricsWindow.toProto(m.window) };
    }),

    openDispute: unary(logger, 'OpenDispute', (req: marketV1.OpenDisputeRequest, ctx) => s.disputes.openDispute(req, caller(ctx))),
    getDispute: unary(logger, 'GetDispute', (req: marketV1.GetDisputeRequest) => s.disputes.getDispute(req)),
    listDisputes: unary(logger, 'ListDisputes', (req: marketV1.ListDisputesRequest) => s.disputes.listDisputes(req)),
    resolveDispute: unary(logger, 'ResolveDispute', (req: marketV1.ResolveDisputeRequest, ctx) => s.disputes.resolveDispute(req, caller(ctx))),
  };
}
