import { walletV1Events } from '@exchange/proto';
import type { Deposit, FaucetGrant } from '../domain/wallet.model';
import { envelope, WALLET_EVENT_TYPES, type Caller } from '../events/wallet.events';
import { toProtoDeposit, toProtoFaucetGrant } from '../events/wallet.messages';

export type DepositVerb = 'created' | 'confirmed' | 'expired';

/** Events of money coming in: faucet grants and deposits. */
export const depositsEvents = {
  faucetGranted: (grant: FaucetGrant, caller: Caller) =>
    envelope(WALLET_EVENT_TYPES.faucet_granted, grant.agentId, caller, walletV1Events.FaucetGranted.toJSON({ grant: toProtoFaucetGrant(grant) })),

  deposit: (verb: DepositVerb, deposit: Deposit, caller: Caller) =>
    envelope(
      `exchange.wallet.deposit.${verb}`,
      deposit.agentId,
      caller,
      walletV1Events.DepositChanged.toJSON({ deposit: toProtoDeposit(deposit) }),
    ),
};
