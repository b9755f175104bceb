import { unary, type Logger } from '@exchange/platform';
import type { walletV1, walletV1Metering } from '@exchange/proto';
import { caller, traceOf } from '../grpc/request';
import { projectionCommand, reconcileCommand, toProtoPeriodReceipt, toProtoProjection, toProtoReconciliation } from './billing.mapper';
import type { BillingService } from './billing.service';

/** CreateBillingProjection, AttachBillingProjection, EmitPeriodReceipt, ReconcilePeriodReceipt (operator). */
export function billingHandlers(s: BillingService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'createBillingProjection' | 'attachBillingProjection' | 'emitPeriodReceipt' | 'reconcilePeriodReceipt'> {
  return {
    createBillingProjection: unary(logger, 'CreateBillingProjection', async (req: walletV1Metering.CreateBillingProjectionRequest, ctx) => ({
      projection: toProtoProjection(await s.createProjection(projectionCommand(req), caller(ctx)), { items: true }),
    })),
    attachBillingProjection: unary(logger, 'AttachBillingProjection', async (req: walletV1Metering.AttachBillingProjectionRequest, ctx) => ({
      receipt: toProtoPeriodReceipt(await s.attachProjection({ projectionId: req.projectionId }, caller(ctx)), { items: true }),
    })),
    emitPeriodReceipt: unary(logger, 'EmitPeriodReceipt', async (req: walletV1Metering.EmitPeriodReceiptRequest, ctx) => {
      const { receipt, created } = await s.emitReceipt(projectionCommand(req), caller(ctx), traceOf(ctx));
      return { receipt: toProtoPeriodReceipt(receipt, { items: true }), created };
    }),
    reconcilePeriodReceipt: unary(logger, 'ReconcilePeriodReceipt', async (req: walletV1Metering.ReconcilePeriodReceiptRequest) => ({
      reconciliation: toProtoReconciliation(await s.reconcileReceipt(reconcileCommand(req))),
    })),
  };
}
