import { walletV1Events } from '@exchange/proto';
import type { Receipt } from '../domain/receipt';
import type { Hold } from '../domain/wallet.model';
import { envelope, WALLET_EVENT_TYPES, type Caller } from '../events/wallet.events';
import { toProtoHold, toProtoReceipt } from '../events/wallet.messages';

/** Settle, Refund and CorrectSettlement publish one event: the receipt, with the hold it moved. */
export const settlementEvents = {
  receiptIssued: (receipt: Receipt, hold: Hold, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.receipt_issued,
      receipt.payer,
      caller,
      walletV1Events.ReceiptIssued.toJSON({ receipt: toProtoReceipt(receipt), hold: toProtoHold(hold) }),
    ),
};
