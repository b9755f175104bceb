import { formatAmount } from '@exchange/platform';
import { walletV1Events, type walletV1Metering } from '@exchange/proto';
import { envelope, WALLET_EVENT_TYPES, type Caller } from '../events/wallet.events';
import type { MeterEpochTable } from './epoch-table';
import type { MeterEvent } from './meter-event';

// Domain → proto of the metering entities (the events' data and, through metering.mapper.ts, the
// RPC answers), and the area's outbox events.

export function toProtoMeterEvent(e: MeterEvent): walletV1Metering.MeterEvent {
  return {
    objectId: e.objectId,
    signerAgentId: e.signerAgentId,
    signature: e.signature,
    payloadJson: e.payloadJson,
    meter: e.meter,
    subjectAgentId: e.subjectAgentId,
    quantity: e.quantity.toString(),
    unit: e.unit,
    occurredAt: e.occurredAt,
    epoch: e.epoch,
    ref: e.ref ?? undefined,
    period: e.period,
    unitPrice: formatAmount(e.unitPrice),
    currency: e.currency,
    ingestedAt: e.ingestedAt,
  };
}

export function toProtoMeterEpochTable(t: MeterEpochTable): walletV1Metering.MeterEpochTable {
  return {
    objectId: t.objectId,
    epoch: t.epoch,
    effectiveFrom: t.effectiveFrom,
    effectiveTo: t.effectiveTo,
    prices: t.prices.map((p) => ({ meter: p.meter, unitPrice: formatAmount(p.unitPrice) })),
    currency: t.currency,
    payloadJson: t.payloadJson,
    signature: t.signature,
    signerPublicKey: t.signerPublicKey,
    createdAt: t.createdAt,
  };
}

export const meteringEvents = {
  /** About the billed agent (subject_id = subject_agent_id). */
  meterEventIngested: (e: MeterEvent, caller: Caller) =>
    envelope(WALLET_EVENT_TYPES.meter_event_ingested, e.subjectAgentId, caller, walletV1Events.MeterEventIngested.toJSON({ event: toProtoMeterEvent(e) })),
  /** subject_id = the epoch name. */
  meterEpochTableCreated: (t: MeterEpochTable, caller: Caller) =>
    envelope(WALLET_EVENT_TYPES.meter_epoch_table_created, t.epoch, caller, walletV1Events.MeterEpochTableCreated.toJSON({ table: toProtoMeterEpochTable(t) })),
};
