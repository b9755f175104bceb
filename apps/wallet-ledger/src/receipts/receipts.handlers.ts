import { unary, type Logger } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import { toProtoReceipt } from '../events/wallet.messages';
import type { ReceiptsService } from './receipts.service';

/** GetReceipt. */
export function receiptsHandlers(s: ReceiptsService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'getReceipt'> {
  return {
    getReceipt: unary(logger, 'GetReceipt', async (req: walletV1.GetReceiptRequest) => ({ receipt: toProtoReceipt(await s.getReceipt(req)) })),
  };
}
