import { unary, type Logger } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { caller, keyed } from '../grpc/request';
import { toProtoRefundPurchaseResponse } from './purchase-refunds.mapper';
import type { PurchaseRefundsService } from './purchase-refunds.service';

/** RefundPurchase (commerce's post-purchase refunds). */
export function purchaseRefundsHandlers(s: PurchaseRefundsService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'refundPurchase'> {
  return {
    refundPurchase: unary(logger, 'RefundPurchase', async (req: walletV1.RefundPurchaseRequest, ctx) =>
      toProtoRefundPurchaseResponse(await s.refundPurchase(keyed(walletV1.RefundPurchaseRequest, req), caller(ctx))),
    ),
  };
}
