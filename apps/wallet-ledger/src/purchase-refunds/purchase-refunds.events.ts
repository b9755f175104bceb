import { walletV1Events } from '@exchange/proto';
import type { Receipt } from '../domain/receipt';
import type { Hold } from '../domain/wallet.model';
import { envelope, WALLET_EVENT_TYPES, type Caller } from '../events/wallet.events';
import { toProtoHold, toProtoReceipt } from '../events/wallet.messages';

/**
 * A purchase refund publishes receipt.issued like every receipt, about the buyer (the payee: the
 * merchant is not an agent), with the settlement's hold, which the refund does not move.
 */
export const purchaseRefundEvents = {
  receiptIssued: (receipt: Receipt, hold: Hold, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.receipt_issued,
      receipt.payee,
      caller,
      walletV1Events.ReceiptIssued.toJSON({ receipt: toProtoReceipt(receipt), hold: toProtoHold(hold) }),
    ),
};
