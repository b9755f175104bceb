import { newEvent, type EventEnvelope } from '@exchange/events';

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
  meter_event_ingested: 'exchange.wallet.meter_event.ingested',
  meter_epoch_table_created: 'exchange.wallet.meter_epoch_table.created',
  billing_projection_created: 'exchange.wallet.billing_projection.created',
  billing_projection_attached: 'exchange.wallet.billing_projection.attached',
  period_receipt_emitted: 'exchange.wallet.period_receipt.emitted',
  proxy_call_recorded: 'exchange.wallet.proxy_call.recorded',
} as const;

/** Who caused the change: the gateway's x-actor (null for the service's own workers). */
export interface Caller {
  actor: string | null;
  traceId: string | null;
}

export const SYSTEM_CALLER: Caller = { actor: 'system:wallet-ledger', traceId: null };

/**
 * One outbox event of the wallet; each area builds its own (`<area>/<area>.events.ts`), with
 * `data` the proto3 JSON of the matching message of proto/exchange/wallet/v1/events.proto.
 */
export function envelope(type: string, subjectId: string, caller: Caller, data: unknown): EventEnvelope {
  return newEvent({ type, source: WALLET_EVENT_SOURCE, subjectId, actor: caller.actor, traceId: caller.traceId, data });
}
