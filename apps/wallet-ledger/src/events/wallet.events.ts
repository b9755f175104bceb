import { newEvent, type EventEnvelope } from '@exchange/events';
import { walletV1Events } from '@exchange/proto';
import type { Controls } from '../domain/controls';
import type { Receipt } from '../domain/receipt';
import type { Deposit, FaucetGrant, Hold, PayoutDestination, Transfer, Withdrawal } from '../domain/wallet.model';
import {
  toProtoControls,
  toProtoDeposit,
  toProtoFaucetGrant,
  toProtoHold,
  toProtoPayoutDestination,
  toProtoReceipt,
  toProtoTransfer,
  toProtoWithdrawal,
} from './wallet.messages';

export const WALLET_EVENT_SOURCE = 'wallet-ledger';

/** Subjects wallet-ledger publishes (DESIGN §5: exchange.<service>.<entity>.<verb>). */
export const WALLET_EVENT_TYPES = {
  faucet_granted: 'exchange.wallet.faucet.granted',
  transfer_completed: 'exchange.wallet.transfer.completed',
  hold_created: 'exchange.wallet.hold.created',
  hold_released: 'exchange.wallet.hold.released',
  hold_consumed: 'exchange.wallet.hold.consumed',
  hold_expired: 'exchange.wallet.hold.expired',
  deposit_created: 'exchange.wallet.deposit.created',
  deposit_confirmed: 'exchange.wallet.deposit.confirmed',
  deposit_expired: 'exchange.wallet.deposit.expired',
  payout_destination_created: 'exchange.wallet.payout_destination.created',
  withdrawal_requested: 'exchange.wallet.withdrawal.requested',
  withdrawal_processing: 'exchange.wallet.withdrawal.processing',
  withdrawal_completed: 'exchange.wallet.withdrawal.completed',
  withdrawal_failed: 'exchange.wallet.withdrawal.failed',
  withdrawal_cancelled: 'exchange.wallet.withdrawal.cancelled',
  receipt_issued: 'exchange.wallet.receipt.issued',
  controls_changed: 'exchange.wallet.controls.changed',
} as const;

/** Who caused the change: the gateway's x-actor (null for the service's own workers). */
export interface Caller {
  actor: string | null;
  traceId: string | null;
}

export const SYSTEM_CALLER: Caller = { actor: 'system:wallet-ledger', traceId: null };

function envelope(type: string, subjectId: string, caller: Caller, data: unknown): EventEnvelope {
  return newEvent({ type, source: WALLET_EVENT_SOURCE, subjectId, actor: caller.actor, traceId: caller.traceId, data });
}

export type HoldVerb = 'created' | 'released' | 'consumed' | 'expired';
export type DepositVerb = 'created' | 'confirmed' | 'expired';
export type WithdrawalVerb = 'requested' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** `data` is the proto3 JSON form of the matching message of proto/exchange/wallet/v1/events.proto. */
export const walletEvents = {
  faucetGranted: (grant: FaucetGrant, caller: Caller) =>
    envelope(WALLET_EVENT_TYPES.faucet_granted, grant.agentId, caller, walletV1Events.FaucetGranted.toJSON({ grant: toProtoFaucetGrant(grant) })),

  transferCompleted: (transfer: Transfer, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.transfer_completed,
      transfer.fromAgentId,
      caller,
      walletV1Events.TransferCompleted.toJSON({ transfer: toProtoTransfer(transfer) }),
    ),

  hold: (verb: HoldVerb, hold: Hold, caller: Caller) =>
    envelope(`exchange.wallet.hold.${verb}`, hold.agentId, caller, walletV1Events.HoldChanged.toJSON({ hold: toProtoHold(hold) })),

  deposit: (verb: DepositVerb, deposit: Deposit, caller: Caller) =>
    envelope(
      `exchange.wallet.deposit.${verb}`,
      deposit.agentId,
      caller,
      walletV1Events.DepositChanged.toJSON({ deposit: toProtoDeposit(deposit) }),
    ),

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

  receiptIssued: (receipt: Receipt, hold: Hold, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.receipt_issued,
      receipt.payer,
      caller,
      walletV1Events.ReceiptIssued.toJSON({ receipt: toProtoReceipt(receipt), hold: toProtoHold(hold) }),
    ),

  controlsChanged: (controls: Controls, reason: string, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.controls_changed,
      'controls',
      caller,
      walletV1Events.ControlsChanged.toJSON({ controls: toProtoControls(controls), reason }),
    ),
};
