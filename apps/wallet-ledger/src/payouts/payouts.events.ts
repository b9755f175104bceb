import { walletV1Events } from '@exchange/proto';
import type { PayoutDestination, Withdrawal } from '../domain/wallet.model';
import { envelope, WALLET_EVENT_TYPES, type Caller } from '../events/wallet.events';
import { toProtoPayoutDestination, toProtoWithdrawal } from '../events/wallet.messages';

export type WithdrawalVerb = 'requested' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** Events of payout destinations and withdrawals (the payout processor's steps included). */
export const payoutsEvents = {
  payoutDestinationCreated: (destination: PayoutDestination, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.payout_destination_created,
      destination.agentId,
      caller,
      walletV1Events.PayoutDestinationCreated.toJSON({ payoutDestination: toProtoPayoutDestination(destination) }),
    ),

  withdrawal: (verb: WithdrawalVerb, withdrawal: Withdrawal, caller: Caller) =>
    envelope(
      `exchange.wallet.withdrawal.${verb}`,
      withdrawal.agentId,
      caller,
      walletV1Events.WithdrawalChanged.toJSON({ withdrawal: toProtoWithdrawal(withdrawal) }),
    ),
};
