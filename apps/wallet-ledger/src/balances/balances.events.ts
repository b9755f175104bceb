import { walletV1Events } from '@exchange/proto';
import type { Transfer } from '../domain/wallet.model';
import { envelope, WALLET_EVENT_TYPES, type Caller } from '../events/wallet.events';
import { toProtoTransfer } from '../events/wallet.messages';

/** Events of agent-to-agent transfers. */
export const balancesEvents = {
  transferCompleted: (transfer: Transfer, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.transfer_completed,
      transfer.fromAgentId,
      caller,
      walletV1Events.TransferCompleted.toJSON({ transfer: toProtoTransfer(transfer) }),
    ),
};
