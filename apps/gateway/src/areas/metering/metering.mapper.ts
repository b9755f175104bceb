import { canonicalize } from '@exchange/crypto';
import type { walletV1Metering } from '@exchange/proto';
import { contractChecks } from '../../lib/mapper-kit';
import { WalletContractError } from '../wallets/wallet.mapper';
import type { CreateEpochTableBodyJson, IngestMeterEventBodyJson, MeterEpochTableJson, MeterEventJson } from './metering.schemas';

// Metering proto ⇄ REST (pure): the payload travels as its canonical JSON (what was signed) and
// comes back parsed; quantity is a decimal string in proto and a JSON integer here; prices a list
// in proto and a {meter: unit_price} object here.

const { required, iso, parsedJson } = contractChecks((what) => new WalletContractError(what));

/** A proto int64-as-string that the contract guarantees to be a safe positive integer. */
export function safeInt(value: string, what: string): number {
  const n = Number(value);
  if (value === '' || !Number.isSafeInteger(n)) throw new WalletContractError(what);
  return n;
}

export function ingestFromJson(body: IngestMeterEventBodyJson): walletV1Metering.IngestMeterEventRequest {
  return { signerAgentId: body.signer_agent_id, payloadJson: canonicalize(body.payload), signature: body.signature };
}

export function epochTableFromJson(body: CreateEpochTableBodyJson): walletV1Metering.CreateMeterEpochTableRequest {
  return {
    epoch: body.epoch,
    effectiveFrom: new Date(body.effective_from),
    effectiveTo: new Date(body.effective_to),
    // Sorted by meter, as the table stores them (the service sorts too; the order is not part of the request).
    prices: Object.entries(body.prices)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([meter, unitPrice]) => ({ meter, unitPrice })),
    currency: body.currency,
  };
}

export function meterEventToJson(event: walletV1Metering.MeterEvent | undefined): MeterEventJson {
  const e = required(event, 'meter event');
  return {
    object_id: e.objectId,
    type: 'meter_event',
    signer_agent_id: e.signerAgentId,
    payload: parsedJson(e.payloadJson, 'meter event payload_json'),
    signature: e.signature,
    meter: e.meter,
    subject_agent_id: e.subjectAgentId,
    quantity: safeInt(e.quantity, 'meter event quantity'),
    unit: e.unit,
    occurred_at: iso(e.occurredAt, 'meter event occurred_at'),
    epoch: e.epoch,
    ...(e.ref !== undefined ? { ref: e.ref } : {}),
    period: e.period,
    unit_price: e.unitPrice,
    currency: e.currency,
    ingested_at: iso(e.ingestedAt, 'meter event ingested_at'),
  };
}

export function epochTableToJson(table: walletV1Metering.MeterEpochTable | undefined): MeterEpochTableJson {
  const t = required(table, 'meter epoch table');
  return {
    object_id: t.objectId,
    epoch: t.epoch,
    effective_from: iso(t.effectiveFrom, 'epoch table effective_from'),
    effective_to: iso(t.effectiveTo, 'epoch table effective_to'),
    prices: Object.fromEntries(t.prices.map((p) => [p.meter, p.unitPrice])),
    currency: t.currency,
    payload: parsedJson(t.payloadJson, 'epoch table payload_json'),
    signature: t.signature,
    signer_public_key: t.signerPublicKey,
    created_at: iso(t.createdAt, 'epoch table created_at'),
  };
}
