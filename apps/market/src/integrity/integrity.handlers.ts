import { unary } from '@exchange/platform';
import { marketV1Integrity } from '@exchange/proto';
import { caller, type HandlerDeps } from '../grpc/handler-kit';
import { idempotent } from '../grpc/idempotency';
import { stateFromProto, toProtoAudit, toProtoContract, toProtoSnapshot } from './integrity.mapper';
import type { IntegrityService } from './integrity.service';

const I = marketV1Integrity;

/** proto in, proto out (the stored idempotent answer is the proto): the rules live in IntegrityService. */
export function integrityHandlers(s: IntegrityService, deps: HandlerDeps): marketV1Integrity.MarketIntegrityServiceServer {
  const logger = deps.logger;
  return {
    getIntegrityState: unary(logger, 'GetIntegrityState', async () => ({ integrity: toProtoSnapshot(await s.getState()) })),
    setIntegrityState: unary(logger, 'SetIntegrityState', (req: marketV1Integrity.SetIntegrityStateRequest, call) =>
      idempotent(deps, caller(call), 'SetIntegrityState', req, I.SetIntegrityStateRequest.toJSON(req), I.SetIntegrityStateResponse, async () => ({
        integrity: toProtoSnapshot(await s.setState({ state: () => stateFromProto(req.state), reason: req.reason }, caller(call))),
        idempotentReplayed: false,
      })),
    ),
    setKillSwitch: unary(logger, 'SetKillSwitch', (req: marketV1Integrity.SetKillSwitchRequest, call) =>
      idempotent(deps, caller(call), 'SetKillSwitch', req, I.SetKillSwitchRequest.toJSON(req), I.SetKillSwitchResponse, async () => ({
        integrity: toProtoSnapshot(await s.setKillSwitch(req, caller(call))),
        idempotentReplayed: false,
      })),
    ),
    correctErroneousClear: unary(logger, 'CorrectErroneousClear', (req: marketV1Integrity.CorrectErroneousClearRequest, call) =>
      idempotent(deps, caller(call), 'CorrectErroneousClear', req, I.CorrectErroneousClearRequest.toJSON(req), I.CorrectErroneousClearResponse, async () => {
        const { contract, receipt } = await s.correctErroneousClear(req, caller(call));
        return { contract: toProtoContract(contract), receipt, idempotentReplayed: false };
      }),
    ),
    listIntegrityAudit: unary(logger, 'ListIntegrityAudit', async (req: marketV1Integrity.ListIntegrityAuditRequest, call) => {
      const page = await s.listAudit(req, caller(call));
      return { entries: page.data.map(toProtoAudit), page: { nextCursor: page.nextCursor ?? '' } };
    }),
  };
}
