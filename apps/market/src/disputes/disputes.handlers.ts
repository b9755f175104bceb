import { unary } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { caller, type HandlerDeps } from '../grpc/handler-kit';
import { idempotent } from '../grpc/idempotency';
import * as map from './disputes.mapper';
import type { DisputesService } from './disputes.service';

type DisputesRpcs = 'openDispute' | 'getDispute' | 'listDisputes' | 'resolveDispute';

/** The MarketService RPCs of disputes: proto in, proto out (the stored idempotent answer is the proto). */
export function disputesHandlers(s: DisputesService, deps: HandlerDeps): Pick<marketV1.MarketServiceServer, DisputesRpcs> {
  const logger = deps.logger;
  return {
    openDispute: unary(logger, 'OpenDispute', (req: marketV1.OpenDisputeRequest, ctx) =>
      idempotent(deps, caller(ctx), 'OpenDispute', req, marketV1.OpenDisputeRequest.toJSON(req), marketV1.OpenDisputeResponse, async () => {
        const { dispute, contract } = await s.openDispute(req, caller(ctx));
        return { dispute: map.toProtoDispute(dispute), contract: map.toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
    getDispute: unary(logger, 'GetDispute', async (req: marketV1.GetDisputeRequest) => ({ dispute: map.toProtoDispute(await s.getDispute(req.disputeId)) })),
    listDisputes: unary(logger, 'ListDisputes', async (req: marketV1.ListDisputesRequest) => {
      const page = await s.listDisputes({ ...req, status: () => map.optionalEnum(map.disputeStatus, req.status, 'status') });
      return { disputes: page.data.map(map.toProtoDispute), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    resolveDispute: unary(logger, 'ResolveDispute', (req: marketV1.ResolveDisputeRequest, ctx) =>
      idempotent(deps, caller(ctx), 'ResolveDispute', req, marketV1.ResolveDisputeRequest.toJSON(req), marketV1.ResolveDisputeResponse, async () => {
        const input = { ...req, outcome: () => map.requiredEnum(map.disputeOutcome, req.outcome, 'outcome') };
        const { dispute, contract } = await s.resolveDispute(input, caller(ctx));
        return { dispute: map.toProtoDispute(dispute), contract: map.toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
  };
}
