import { unary } from '@exchange/platform';
import { marketV1Governance } from '@exchange/proto';
import { caller, type HandlerDeps } from '../grpc/handler-kit';
import { idempotent } from '../grpc/idempotency';
import { reviewStatusFromProto, toProtoContract, toProtoReview } from './governance.mapper';
import type { GovernanceService } from './governance.service';

const G = marketV1Governance;

/** ContractGovernanceService: proto in, proto out (the stored idempotent answer is the proto); the rules live in GovernanceService. */
export function governanceHandlers(s: GovernanceService, deps: HandlerDeps): marketV1Governance.ContractGovernanceServiceServer {
  const logger = deps.logger;
  return {
    updateBuyerAlias: unary(logger, 'UpdateBuyerAlias', (req: marketV1Governance.UpdateBuyerAliasRequest, call) =>
      idempotent(deps, caller(call), 'UpdateBuyerAlias', req, G.UpdateBuyerAliasRequest.toJSON(req), G.UpdateBuyerAliasResponse, async () => {
        const { contract, previousAlias } = await s.updateBuyerAlias(req, caller(call));
        return { contract: toProtoContract(contract), previousAlias: previousAlias ?? undefined, idempotentReplayed: false };
      }),
    ),
    listResaleReviews: unary(logger, 'ListResaleReviews', async (req: marketV1Governance.ListResaleReviewsRequest, call) => {
      const page = await s.listResaleReviews({ status: reviewStatusFromProto(req.status), contractId: req.contractId, page: req.page }, caller(call));
      return { reviews: page.data.map(toProtoReview), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    getResaleReview: unary(logger, 'GetResaleReview', async (req: marketV1Governance.GetResaleReviewRequest, call) => ({
      review: toProtoReview(await s.getResaleReview(req.decisionRef, caller(call))),
    })),
    decideResaleReview: unary(logger, 'DecideResaleReview', (req: marketV1Governance.DecideResaleReviewRequest, call) =>
      idempotent(deps, caller(call), 'DecideResaleReview', req, G.DecideResaleReviewRequest.toJSON(req), G.DecideResaleReviewResponse, async () => {
        const { review, contract } = await s.decideResaleReview(req, caller(call));
        return { review: toProtoReview(review), contract: toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
  };
}
