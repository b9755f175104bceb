import { unary, type Logger } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import type { BillingService } from './billing.service';

/** CreateBillingProjection, AttachBillingProjection, EmitPeriodReceipt, ReconcilePeriodReceipt. */
export function billingHandlers(s: BillingService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'createBillingProjection' | 'attachBillingProjection' | 'emitPeriodReceipt' | 'reconcilePeriodReceipt'> {
  return {
    createBillingProjection: unary(logger, 'CreateBillingProjection', async () => s.notYet()),
    attachBillingProjection: unary(logger, 'AttachBillingProjection', async () => s.notYet()),
    emitPeriodReceipt: unary(logger, 'EmitPeriodReceipt', async () => s.notYet()),
    reconcilePeriodReceipt: unary(logger, 'ReconcilePeriodReceipt', async () => s.notYet()),
  };
}
