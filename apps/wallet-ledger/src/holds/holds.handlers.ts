import { unary, type Logger } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { toProtoHold } from '../events/wallet.messages';
import { caller, keyed } from '../grpc/request';
import { toProtoHoldResponse } from './holds.mapper';
import type { HoldsService } from './holds.service';

type Served = 'createHold' | 'getHold' | 'releaseHold' | 'consumeHold';
const W = walletV1;

/** Holds: map the request, call the service, map the result. */
export function holdsHandlers(s: HoldsService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, Served> {
  return {
    createHold: unary(logger, 'CreateHold', async (req: walletV1.CreateHoldRequest, ctx) =>
      toProtoHoldResponse(await s.createHold(keyed(W.CreateHoldRequest, req), caller(ctx))),
    ),
    getHold: unary(logger, 'GetHold', async (req: walletV1.GetHoldRequest) => ({ hold: toProtoHold(await s.getHold(req)) })),
    releaseHold: unary(logger, 'ReleaseHold', async (req: walletV1.ReleaseHoldRequest, ctx) =>
      toProtoHoldResponse(await s.releaseHold(keyed(W.ReleaseHoldRequest, req), caller(ctx))),
    ),
    consumeHold: unary(logger, 'ConsumeHold', async (req: walletV1.ConsumeHoldRequest, ctx) =>
      toProtoHoldResponse(await s.consumeHold(keyed(W.ConsumeHoldRequest, req), caller(ctx))),
    ),
  };
}
