import { parseAmount } from '@exchange/platform';
import { walletV1Wire, type walletV1 } from '@exchange/proto';
import type { Receipt } from '../domain/receipt';
import { known, must, nul } from '../grpc/codec';

/** A receipt back from a stored response (settlement.mapper.ts); receipt → proto is events/wallet.messages.ts. */
export function fromProtoReceipt(r: walletV1.Receipt | undefined): Receipt {
  const m = must(r, 'receipt');
  return {
    ...m,
    kind: known(walletV1Wire.receiptKind, m.kind, 'receipt kind'),
    amount: parseAmount(m.amount),
    fee: parseAmount(m.fee),
    refundedAmount: parseAmount(m.refundedAmount),
    settledAt: must(m.settledAt, 'settled_at'),
    correctsReceiptId: nul(m.correctsReceiptId),
    reason: nul(m.reason),
    refundsReceiptId: nul(m.refundsReceiptId),
  };
}
