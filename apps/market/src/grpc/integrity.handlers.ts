import { unary, type CallContext, type Logger } from '@exchange/platform';
import type { marketV1Integrity } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import type { IntegrityService } from '../integrity/integrity.service';

const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, agentId: ctx.agentId, traceId: ctx.traceId });

/** proto in, proto out: the rules live in IntegrityService. */
export function integrityHandlers(s: IntegrityService, logger: Logger): marketV1Integrity.MarketIntegrityServiceServer {
  return {
    getIntegrityState: unary(logger, 'GetIntegrityState', () => s.getState()),
    setIntegrityState: unary(logger, 'SetIntegrityState', (req: marketV1Integrity.SetIntegrityStateRequest, ctx) => s.setState(req, caller(ctx))),
    setKillSwitch: unary(logger, 'SetKillSwitch', (req: marketV1Integrity.SetKillSwitchRequest, ctx) => s.setKillSwitch(req, caller(ctx))),
    correctErroneousClear: unary(logger, 'CorrectErroneousClear', (req: marketV1Integrity.CorrectErroneousClearRequest, ctx) =>
      s.correctErroneousClear(req, caller(ctx)),
    ),
    listIntegrityAudit: unary(logger, 'ListIntegrityAudit', (req: marketV1Integrity.ListIntegrityAuditRequest, ctx) => s.listAudit(req, caller(ctx))),
  };
}
