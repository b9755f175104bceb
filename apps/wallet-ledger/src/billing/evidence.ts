import { canonicalBytes, verifyCanonical, verifyWithAnyKeyAsync } from '@exchange/crypto';
import { parseAmount } from '@exchange/platform';
import { EXCHANGE_SIGNER, registryObjectId } from '../metering/object-id';

// Reconciliation re-checks what the wallet stored against what was signed (README.md "Billing"):
// a meter event row against its agent-signed registry object, an epoch table and its price rows
// against the exchange-signed table. What was signed is the truth the receipt is recomputed from;
// a row that no longer matches it is reported, never silently used.


export interface StoredMeterEvent {
  objectId: string;
  signerAgentId: string;
  subjectAgentId: string;
  meter: string;
  quantity: bigint;
  unit: string;
  occurredAt: Date;
  epoch: string;
  ref: string | null;
  payloadJson: string;
  signature: string;
}

/** A meter event as reconciliation prices it: the signed values, and why it is invalid (empty: valid). */
export interface CheckedMeterEvent {
  objectId: string;
  meter: string;
  epoch: string;
  occurredAt: Date;
  quantity: bigint;
  problems: string[];
}

type Json = Record<string, unknown>;

function parseObject(json: string): Json | undefined {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The bytes a signer signed (RFC 8785), or undefined for a payload no signer could have signed (e.g. 1e400 parses to Infinity). */
function signedBytesOf(payload: Json): Uint8Array | undefined {
  try {
    return canonicalBytes(payload);
  } catch {
    return undefined;
  }
}

const NOT_CANONICAL = 'payload_json cannot be canonicalized (RFC 8785), so nothing signed it';

const sameInstant = (v: unknown, at: Date) => typeof v === 'string' && Date.parse(v) === at.getTime();
/** A payload quantity (integer, as a string or a number) as BigInt, else undefined. */
function quantityOf(v: unknown): bigint | undefined {
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  return typeof s === 'string' && /^[1-9]\d*$/.test(s) ? BigInt(s) : undefined;
}

/**
 * Object id, signature (any of the signer's keys) and the row's columns against its signed payload.
 * The signature is checked off the event loop: a period can hold thousands of events.
 */
export async function checkMeterEvent(row: StoredMeterEvent, signerKeys: readonly string[]): Promise<CheckedMeterEvent> {
  const payload = parseObject(row.payloadJson);
  if (!payload) {
    return { ...pick(row), problems: ['payload_json is not a JSON object'] };
  }
  const signed = signedBytesOf(payload);
  if (!signed) return { ...pick(row), problems: [NOT_CANONICAL] };
  const problems: string[] = [];
  if (registryObjectId('meter_event', payload, row.signerAgentId) !== row.objectId) problems.push('object id does not match the payload');
  if ((await verifyWithAnyKeyAsync(row.signature, signed, signerKeys)) === null) problems.push(`signature does not verify with a key of ${row.signerAgentId}`);
  const quantity = quantityOf(payload['quantity']);
  const columns: Array<[string, boolean]> = [
    ['meter', payload['meter'] === row.meter],
    ['subject_agent_id', payload['subject_agent_id'] === row.subjectAgentId],
    ['quantity', quantity === row.quantity],
    ['unit', payload['unit'] === row.unit],
    ['occurred_at', sameInstant(payload['occurred_at'], row.occurredAt)],
    ['epoch', payload['epoch'] === row.epoch],
    ['ref', (payload['ref'] ?? null) === row.ref],
  ];
  const differing = columns.filter(([, same]) => !same).map(([name]) => name);
  if (differing.length > 0) problems.push(`stored ${differing.join(', ')} ${differing.length > 1 ? 'differ' : 'differs'} from the signed payload`);
  const signedAt = typeof payload['occurred_at'] === 'string' ? new Date(Date.parse(payload['occurred_at'])) : undefined;
  return {
    objectId: row.objectId,
    // The signed values where they are well formed, else the row's (already reported above).
    meter: typeof payload['meter'] === 'string' ? payload['meter'] : row.meter,
    epoch: typeof payload['epoch'] === 'string' ? payload['epoch'] : row.epoch,
    occurredAt: signedAt && !Number.isNaN(signedAt.getTime()) ? signedAt : row.occurredAt,
    quantity: quantity ?? row.quantity,
    problems,
  };
}

/** Checked at once: the signature checks run on libuv's threadpool (4 threads by default), so not one promise per row at a time. */
export const METER_CHECKS_AT_ONCE = 16;

/** Every row checked (checkMeterEvent with its signer's keys), in order, METER_CHECKS_AT_ONCE at a time. */
export async function checkMeterEvents(rows: readonly StoredMeterEvent[], keysOf: (signerAgentId: string) => readonly string[]): Promise<CheckedMeterEvent[]> {
  const checked: CheckedMeterEvent[] = [];
  for (let i = 0; i < rows.length; i += METER_CHECKS_AT_ONCE) {
    checked.push(...(await Promise.all(rows.slice(i, i + METER_CHECKS_AT_ONCE).map((r) => checkMeterEvent(r, keysOf(r.signerAgentId))))));
  }
  return checked;
}

const pick = (row: StoredMeterEvent) => ({ objectId: row.objectId, meter: row.meter, epoch: row.epoch, occurredAt: row.occurredAt, quantity: row.quantity });

export interface StoredEpochTable {
  objectId: string;
  epoch: string;
  effectiveFrom: Date;
  effectiveTo: Date;
  currency: string;
  payloadJson: string;
  signature: string;
}

export interface StoredEpochPrice {
  meter: string;
  effectiveFrom: Date;
  effectiveTo: Date;
  unitPrice: bigint;
  currency: string;
}

/** An epoch table as reconciliation prices with it: the signed prices, and why it is invalid (empty: valid). */
export interface CheckedEpochTable {
  epoch: string;
  currency: string;
  /** meter → micro-units per unit. */
  prices: Map<string, bigint>;
  problems: string[];
}

function signedPrices(v: unknown): Map<string, bigint> | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const prices = new Map<string, bigint>();
  for (const [meter, price] of Object.entries(v)) {
    try {
      prices.set(meter, parseAmount(price as string));
    } catch {
      return undefined;
    }
  }
  return prices;
}

/**
 * Object id, exchange signature, and the table's columns and price rows against its signed payload.
 * A table that is not stored at all (`table` undefined) is invalid and prices with its rows.
 */
export function checkEpochTable(
  epoch: string,
  table: StoredEpochTable | undefined,
  rows: readonly StoredEpochPrice[],
  exchangePublicKey: string,
): CheckedEpochTable {
  const fromRows = new Map(rows.map((r) => [r.meter, r.unitPrice]));
  const rowCurrency = rows[0]?.currency ?? '';
  if (!table) return { epoch, currency: rowCurrency, prices: fromRows, problems: ['the epoch table is not stored'] };
  const payload = parseObject(table.payloadJson);
  const prices = payload && signedPrices(payload['prices']);
  if (!payload || !prices) return { epoch, currency: table.currency, prices: fromRows, problems: ['payload_json is not an epoch table'] };
  if (!signedBytesOf(payload)) return { epoch, currency: table.currency, prices: fromRows, problems: [NOT_CANONICAL] };
  const problems: string[] = [];
  if (registryObjectId('meter_epoch_table', payload, EXCHANGE_SIGNER) !== table.objectId) problems.push('object id does not match the payload');
  if (!verifyCanonical(payload, table.signature, exchangePublicKey)) problems.push('signature does not verify with the exchange key');
  const currency = typeof payload['currency'] === 'string' ? payload['currency'] : table.currency;
  const columns: Array<[string, boolean]> = [
    ['epoch', payload['epoch'] === table.epoch && table.epoch === epoch],
    ['effective_from', sameInstant(payload['effective_from'], table.effectiveFrom)],
    ['effective_to', sameInstant(payload['effective_to'], table.effectiveTo)],
    ['currency', currency === table.currency],
  ];
  const differing = columns.filter(([, same]) => !same).map(([name]) => name);
  if (differing.length > 0) problems.push(`stored ${differing.join(', ')} ${differing.length > 1 ? 'differ' : 'differs'} from the signed payload`);
  const rowProblems = new Set<string>();
  for (const r of rows) {
    const signed = prices.get(r.meter);
    if (signed === undefined) rowProblems.add(`a price row for ${r.meter}, which the table does not price`);
    else if (signed !== r.unitPrice || r.currency !== currency || r.effectiveFrom.getTime() !== table.effectiveFrom.getTime() || r.effectiveTo.getTime() !== table.effectiveTo.getTime()) {
      rowProblems.add(`the price row of ${r.meter} differs from the signed table`);
    }
  }
  for (const meter of prices.keys()) if (!fromRows.has(meter)) rowProblems.add(`no price row for ${meter}`);
  problems.push(...[...rowProblems].sort());
  return { epoch, currency, prices, problems };
}
