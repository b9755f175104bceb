import { unary } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { caller, type HandlerDeps } from '../grpc/handler-kit';
import { idempotent } from '../grpc/idempotency';
import * as map from './verification.mapper';
import type { VerificationService } from './verification.service';

type VerificationRpcs = 'submitVerification' | 'getLatestVerification' | 'listVerificationReports' | 'getVerificationMetrics';

/** The MarketService RPCs of verification reports and metrics: proto in, proto out (the stored idempotent answer is the proto). */
export function verificationHandlers(s: VerificationService, deps: HandlerDeps): Pick<marketV1.MarketServiceServer, VerificationRpcs> {
  const logger = deps.logger;
  return {
    submitVerification: unary(logger, 'SubmitVerification', (req: marketV1.SubmitVerificationRequest, ctx) =>
      idempotent(deps, caller(ctx), 'SubmitVerification', req, marketV1.SubmitVerificationRequest.toJSON(req), marketV1.SubmitVerificationResponse, async () => {
        const input = { ...req, verdict: () => map.requiredEnum(map.verdict, req.verdict, 'verdict') };
        const { report, contract } = await s.submitVerification(input, caller(ctx));
        return { report: map.toProtoReport(report), contract: map.toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
    getLatestVerification: unary(logger, 'GetLatestVerification', async (req: marketV1.GetLatestVerificationRequest) => ({
      report: map.toProtoReport(await s.getLatestVerification(req.contractId)),
    })),
    listVerificationReports: unary(logger, 'ListVerificationReports', async (req: marketV1.ListVerificationReportsRequest) => {
      const page = await s.listVerificationReports(req);
      return { reports: page.data.map(map.toProtoReport), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    getVerificationMetrics: unary(logger, 'GetVerificationMetrics', async (req: marketV1.GetVerificationMetricsRequest) => {
      const m = await s.getVerificationMetrics(map.optionalEnum(map.metricsWindow, req.window, 'window') ?? 'all');
      return { ...m, window: map.metricsWindow.toProto(m.window) };
    }),
  };
}
