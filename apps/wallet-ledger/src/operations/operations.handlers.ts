import { unary, type Logger } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import { caller } from '../grpc/request';
import { toProtoControlsResponse } from './operations.mapper';
import type { OperationsService } from './operations.service';

/** GetControls and SetControls (the operator's kill switches and read-only mode). */
export function operationsHandlers(s: OperationsService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'getControls' | 'setControls'> {
  return {
    getControls: unary(logger, 'GetControls', async () => toProtoControlsResponse(await s.getControls())),
    setControls: unary(logger, 'SetControls', async (req: walletV1.SetControlsRequest, ctx) => toProtoControlsResponse(await s.setControls(req, caller(ctx)))),
  };
}
