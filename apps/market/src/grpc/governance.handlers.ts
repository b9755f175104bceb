import { unary, type CallContext, type Logger } from '@exchange/platform';
import { marketV1Governance } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import { reviewStatusFromProto, toProtoReview } from '../governance/governance.mapper';
import type { GovernanceService } from '../governance/governance.service';
import type { MarketContext } from '../saga/context';
import { idempotent } from '../service/idempotency';
import { toProtoContract } from './market.mapper';

const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, agentId: ctx.agentId, traceId: ctx.traceId });
const G = marketV1Governance;

/** ContractGovernanceService: proto in, proto out (the stored idempotent answer is the proto); the rules live in GovernanceService. */
export function governanceHandlers(s: GovernanceService, ctx: MarketContext, logger: Logger): marketV1Governance.ContractGovernanceServiceServer {
  return {
    updateBuyerAlias: unary(logger, 'UpdateBuyerAlias', (req: marketV1Governance.UpdateBuyerAliasRequest, call) =>
      idempotent(ctx, caller(call), 'UpdateBuyerAlias', req, G.UpdateBuyerAliasRequest.toJSON(req), G.UpdateBuyerAliasResponse, async () => {
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
      idempotent(ctx, caller(call), 'DecideResaleReview', req, G.DecideResaleReviewRequest.toJSON(req), G.DecideResaleReviewResponse, async () => {
        const { review, contract } = await s.decideResaleReview(req, caller(call));
        return { review: toProtoReview(review), contract: toProtoContract(contract), idempotentReplayed: false };
      }),
    ),
  };
}
