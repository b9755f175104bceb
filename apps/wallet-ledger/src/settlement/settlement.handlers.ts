import { unary, type Logger } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { caller, keyed } from '../grpc/request';
import { toProtoCorrectionResponse, toProtoSettlementResponse } from './settlement.mapper';
import type { SettlementService } from './settlement.service';

type Served = 'settle' | 'refund' | 'correctSettlement';
const W = walletV1;

/** The market's settlement RPCs: map the request, call the service, map the result. */
export function settlementHandlers(s: SettlementService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, Served> {
  return {
    settle: unary(logger, 'Settle', async (req: walletV1.SettleRequest, ctx) => toProtoSettlementResponse(await s.settle(keyed(W.SettleRequest, req), caller(ctx)))),
    refund: unary(logger, 'Refund', async (req: walletV1.RefundRequest, ctx) => toProtoSettlementResponse(await s.refund(keyed(W.RefundRequest, req), caller(ctx)))),
    correctSettlement: unary(logger, 'CorrectSettlement', async (req: walletV1.CorrectSettlementRequest, ctx) =>
      toProtoCorrectionResponse(await s.correctSettlement(keyed(W.CorrectSettlementRequest, req), caller(ctx))),
    ),
  };
}
