import { formatAmount, parseAmount } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import type { PurchaseRefundResult } from '../domain/wallet.commands';
import { toProtoReceipt } from '../events/wallet.messages';
import { codec, replay } from '../grpc/codec';
import { fromProtoReceipt } from '../receipts/receipts.mapper';
import type { PurchaseRefundsDeps } from './purchase-refunds.service';

export const toProtoRefundPurchaseResponse = (r: PurchaseRefundResult): walletV1.RefundPurchaseResponse => ({
  receipt: toProtoReceipt(r.receipt),
  refundedTotal: formatAmount(r.refundedTotal),
  settledAmount: formatAmount(r.settledAmount),
  ...replay(r),
});

/** The stored form of RefundPurchase's result (see grpc/codec.ts). */
export const purchaseRefundsCodecs: PurchaseRefundsDeps['codecs'] = {
  refundPurchase: codec(walletV1.RefundPurchaseResponse, toProtoRefundPurchaseResponse, (m) => ({
    receipt: fromProtoReceipt(m.receipt),
    refundedTotal: parseAmount(m.refundedTotal),
    settledAmount: parseAmount(m.settledAmount),
    ...replay(m),
  })),
};
