import { parseAmount } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import type { Receipt } from '../domain/receipt';
import { RECEIPT_KIND } from '../events/wallet.messages';
import { known, must, nul } from '../grpc/codec';
import { reverse } from '../grpc/request';

export const RECEIPT_KIND_FROM = reverse(RECEIPT_KIND);

/** A receipt back from a stored response (settlement.mapper.ts); receipt → proto is events/wallet.messages.ts. */
export function fromProtoReceipt(r: walletV1.Receipt | undefined): Receipt {
  const m = must(r, 'receipt');
  return {
    ...m,
    kind: known(RECEIPT_KIND_FROM, m.kind, 'receipt kind'),
    amount: parseAmount(m.amount),
    fee: parseAmount(m.fee),
    refundedAmount: parseAmount(m.refundedAmount),
    settledAt: must(m.settledAt, 'settled_at'),
    correctsReceiptId: nul(m.correctsReceiptId),
    reason: nul(m.reason),
  };
}
