import { unary, type CallContext, type Logger } from '@exchange/platform';
import type { marketV1Governance } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import type { GovernanceService } from '../governance/governance.service';

const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, agentId: ctx.agentId, traceId: ctx.traceId });

/** ContractGovernanceService: proto in, proto out; the rules live in GovernanceService. */
export function governanceHandlers(s: GovernanceService, logger: Logger): marketV1Governance.ContractGovernanceServiceServer {
  return {
    updateBuyerAlias: unary(logger, 'UpdateBuyerAlias', (req: marketV1Governance.UpdateBuyerAliasRequest, ctx) => s.updateBuyerAlias(req, caller(ctx))),
    listResaleReviews: unary(logger, 'ListResaleReviews', (req: marketV1Governance.ListResaleReviewsRequest, ctx) => s.listResaleReviews(req, caller(ctx))),
    getResaleReview: unary(logger, 'GetResaleReview', (req: marketV1Governance.GetResaleReviewRequest, ctx) => s.getResaleReview(req, caller(ctx))),
    decideResaleReview: unary(logger, 'DecideResaleReview', (req: marketV1Governance.DecideResaleReviewRequest, ctx) =>
      s.decideResaleReview(req, caller(ctx)),
    ),
  };
}
