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
    createContract: unary(logger, 'CreateContract', (req: marketV1.CreateContractRequest, ctx) =>
      idempotent(market, caller(ctx), 'CreateContract', req, marketV1.CreateContractRequest.toJSON(req), marketV1.CreateContractResponse, async () => {
        const verificationMode = () =>
          req.verificationMode === marketV1.VerificationMode.VERIFICATION_MODE_UNSPECIFIED ? null : map.requiredEnum(map.verificationMode, req.verificationMode, 'verification_mode');
        return { contract: map.toProtoContract(await s.contracts.createContract({ ...req, verificationMode }, caller(ctx))), idempotentReplayed: false };
      }),
    ),
    getContract: unary(logger, 'GetContract', async (req: marketV1.GetContractRequest, ctx) => ({
      contract: map.toProtoContract(await s.contracts.getContract(req.contractId, caller(ctx))),
    })),
    listContracts: unary(logger, 'ListContracts', async (req: marketV1.ListContractsRequest, ctx) => {
      const page = await s.contracts.listContracts({ ...req, status: () => map.optionalEnum(map.contractStatus, req.status, 'status') }, caller(ctx));
      return { contracts: page.data.map(map.toProtoContract), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    cancelContract: unary(logger, 'CancelContract', (req: marketV1.CancelContractRequest, ctx) =>
      idempotent(market, caller(ctx), 'CancelContract', req, marketV1.CancelContractRequest.toJSON(req), marketV1.CancelContractResponse, async () => ({
        contract: map.toProtoContract(await s.contracts.cancelContract(req, caller(ctx))),
        idempotentReplayed: false,
      })),
    ),

    submitOffer: unary(logger, 'SubmitOffer', (req: marketV1.SubmitOfferRequest, ctx) =>
      idempotent(market, caller(ctx), 'SubmitOffer', req, marketV1.SubmitOfferRequest.toJSON(req), marketV1.SubmitOfferResponse, async () => ({
        offer: map.toProtoOffer(await s.offers.submitOffer(req, caller(ctx))),
        idempotentReplayed: false,
      })),
    ),
    getOffer: unary(logger, 'GetOffer', async (req: marketV1.GetOfferRequest) => ({ offer: map.toProtoOffer(await s.offers.getOffer(req.offerId)) })),
    listOffers: unary(logger, 'ListOffers', async (req: marketV1.ListOffersRequest) => {
      const page = await s.offers.listOffers({ ...req, status: () => map.optionalEnum(map.offerStatus, req.status, 'status') });
      return { offers: page.data.map(map.toProtoOffer), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    withdrawOffer: unary(logger, 'WithdrawOffer', (req: marketV1.WithdrawOfferRequest, ctx) =>
      idempotent(market, caller(ctx), 'WithdrawOffer', req, marketV1.WithdrawOfferRequest.toJSON(req), marketV1.WithdrawOfferResponse, async () => ({
        offer: map.toProtoOffer(await s.offers.withdrawOffer(req.offerId, caller(ctx))),
        idempotentReplayed: false,
      })),
    ),
    awardOffer: unary(logger, 'AwardOffer', (req: marketV1.AwardOfferRequest, ctx) =>
      idempotent(market, caller(ctx), 'AwardOffer', req, marketV1.AwardOfferRequest.toJSON(req), marketV1.AwardOfferResponse, async () => {
        const { contract, offer } = await s.offers.awardOffer(req, caller(ctx));
        return { contract: map.toProtoContract(contract), offer: map.toProtoOffer(offer), idempotentReplayed: false };
      }),
    ),

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

    openDispute: unary(logger, 'OpenDispute', (req: marketV1.OpenDisputeRequest, ctx) =>
      idempotent(market, caller(ctx), 'OpenDispute', req, marketV1.OpenDisputeRequest.toJSON(req), marketV1.OpenDisputeResponse, async () => {
        const { dispute, contract } = await s.disputes.openDispute(req, caller(ctx));
        return { dispute: map.toProtoDispute(dispute), contract: map.toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
    getDispute: unary(logger, 'GetDispute', async (req: marketV1.GetDisputeRequest) => ({ dispute: map.toProtoDispute(await s.disputes.getDispute(req.disputeId)) })),
    listDisputes: unary(logger, 'ListDisputes', async (req: marketV1.ListDisputesRequest) => {
      const page = await s.disputes.listDisputes({ ...req, status: () => map.optionalEnum(map.disputeStatus, req.status, 'status') });
      return { disputes: page.data.map(map.toProtoDispute), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    resolveDispute: unary(logger, 'ResolveDispute', (req: marketV1.ResolveDisputeRequest, ctx) =>
      idempotent(market, caller(ctx), 'ResolveDispute', req, marketV1.ResolveDisputeRequest.toJSON(req), marketV1.ResolveDisputeResponse, async () => {
        const input = { ...req, outcome: () => map.requiredEnum(map.disputeOutcome, req.outcome, 'outcome') };
        const { dispute, contract } = await s.disputes.resolveDispute(input, caller(ctx));
        return { dispute: map.toProtoDispute(dispute), contract: map.toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
  };
}
