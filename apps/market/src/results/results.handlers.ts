import { unary } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { caller, type HandlerDeps } from '../grpc/handler-kit';
import { idempotent } from '../grpc/idempotency';
import * as map from './results.mapper';
import type { ResultsService } from './results.service';

type ResultsRpcs = 'submitResult' | 'getResult' | 'listResults';

/** The MarketService RPCs of results: proto in, proto out (the stored idempotent answer is the proto). */
export function resultsHandlers(s: ResultsService, deps: HandlerDeps): Pick<marketV1.MarketServiceServer, ResultsRpcs> {
  const logger = deps.logger;
  return {
    submitResult: unary(logger, 'SubmitResult', (req: marketV1.SubmitResultRequest, ctx) =>
      idempotent(deps, caller(ctx), 'SubmitResult', req, marketV1.SubmitResultRequest.toJSON(req), marketV1.SubmitResultResponse, async () => {
        const { result, contract } = await s.submitResult(req, caller(ctx));
        return { result: map.toProtoResult(result), contract: map.toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
    getResult: unary(logger, 'GetResult', async (req: marketV1.GetResultRequest) => ({ result: map.toProtoResult(await s.getResult(req.resultId)) })),
    listResults: unary(logger, 'ListResults', async (req: marketV1.ListResultsRequest) => {
      const page = await s.listResults({ ...req, status: () => map.optionalEnum(map.resultStatus, req.status, 'status') });
      return { results: page.data.map(map.toProtoResult), page: { nextCursor: page.nextCursor ?? '' } };
    }),
  };
}
