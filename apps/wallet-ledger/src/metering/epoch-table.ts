import { canonicalize } from '@exchange/crypto';
import { formatAmount, MICRO_PER_UNIT, parseAmount } from '@exchange/platform';
import { parseCurrency } from '../domain/currency';
import { walletErrors } from '../domain/wallet.errors';
import { EPOCH_PATTERN, METER_PATTERN } from './meter-event';

// A meter epoch table: the unit prices of some meters for [effective_from, effective_to), signed by
// the exchange (registry type "meter_epoch_table"). Immutable; the epochs pricing one meter never
// overlap, so a meter event's epoch name picks exactly one price.

export const METER_EPOCH_TABLE_TYPE = 'meter_epoch_table';
export const MAX_PRICES = 200;
export const MAX_UNIT_PRICE = 1_000_000n * MICRO_PER_UNIT;

export interface EpochPrice {
  meter: string;
  /** Micro-units per unit of quantity. */
  unitPrice: bigint;
}

/** A validated CreateMeterEpochTable request and the payload the exchange signs. */
export interface EpochTableDraft {
  epoch: string;
  effectiveFrom: Date;
  effectiveTo: Date;
  /** Sorted by meter (code points). */
  prices: EpochPrice[];
  currency: string;
  /** canonical({epoch, effective_from, effective_to, prices{meter: unit_price}, currency}). */
  payloadJson: string;
  payload: Record<string, unknown>;
}

export interface MeterEpochTable extends Omit<EpochTableDraft, 'payload'> {
  objectId: string;
  signature: string;
  signerPublicKey: string;
  createdAt: Date;
}

export interface TimeRange {
  from: Date;
  to: Date;
}

const invalid = (field: string, message: string) => walletErrors.validationFailed(message, { field });

function unitPriceOf(value: string, field: string): bigint {
  let micro: bigint;
  try {
    micro = parseAmount(value);
  } catch {
    throw invalid(field, `${field} must be a decimal string with at most 6 fraction digits`);
  }
  if (micro < 0n || micro > MAX_UNIT_PRICE) throw invalid(field, `${field} must be from 0 to ${formatAmount(MAX_UNIT_PRICE)}`);
  return micro;
}

/** Validates a table (400 validation_failed naming the field, 400 unsupported_currency) and builds its payload. */
export function parseEpochTable(input: {
  epoch: string;
  effectiveFrom: Date | undefined;
  effectiveTo: Date | undefined;
  prices: Array<{ meter: string; unitPrice: string }>;
  currency: string | undefined;
}): EpochTableDraft {
  if (!EPOCH_PATTERN.test(input.epoch)) throw invalid('epoch', `epoch must match ${EPOCH_PATTERN.source}`);
  const { effectiveFrom, effectiveTo } = input;
  if (!effectiveFrom || Number.isNaN(effectiveFrom.getTime())) throw invalid('effective_from', 'effective_from is required');
  if (!effectiveTo || Number.isNaN(effectiveTo.getTime())) throw invalid('effective_to', 'effective_to is required');
  if (effectiveFrom.getTime() >= effectiveTo.getTime()) throw invalid('effective_to', 'effective_to must be after effective_from');
  if (input.prices.length < 1 || input.prices.length > MAX_PRICES) throw invalid('prices', `prices must list 1 to ${MAX_PRICES} meters`);
  const seen = new Set<string>();
  const prices = input.prices.map((p, i) => {
    if (!METER_PATTERN.test(p.meter)) throw invalid(`prices[${i}].meter`, `prices[${i}].meter must match ${METER_PATTERN.source}`);
    if (seen.has(p.meter)) throw invalid(`prices[${i}].meter`, `meter ${p.meter} is priced twice`);
    seen.add(p.meter);
    return { meter: p.meter, unitPrice: unitPriceOf(p.unitPrice, `prices[${i}].unit_price`) };
  });
  prices.sort((a, b) => (a.meter < b.meter ? -1 : a.meter > b.meter ? 1 : 0));
  const currency = parseCurrency(input.currency);
  const payload = {
    epoch: input.epoch,
    effective_from: effectiveFrom.toISOString(),
    effective_to: effectiveTo.toISOString(),
    prices: Object.fromEntries(prices.map((p) => [p.meter, formatAmount(p.unitPrice)])),
    currency,
  };
  return { epoch: input.epoch, effectiveFrom, effectiveTo, prices, currency, payload, payloadJson: canonicalize(payload) };
}

/** [a.from, a.to) ∩ [b.from, b.to) ≠ ∅. */
export function rangesOverlap(a: TimeRange, b: TimeRange): boolean {
  return a.from.getTime() < b.to.getTime() && b.from.getTime() < a.to.getTime();
}

/** effective_from ≤ at < effective_to. */
export function rangeCovers(range: TimeRange, at: Date): boolean {
  return range.from.getTime() <= at.getTime() && at.getTime() < range.to.getTime();
}

/** The first priced range (of the same meters) that overlaps `range`: epochs of one meter never overlap. */
export function firstOverlap<T extends { effectiveFrom: Date; effectiveTo: Date }>(range: TimeRange, priced: readonly T[]): T | undefined {
  return priced.find((p) => rangesOverlap(range, { from: p.effectiveFrom, to: p.effectiveTo }));
}
