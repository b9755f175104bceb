import { errors, formatAmount, MICRO_PER_UNIT } from '@exchange/platform';
import { walletErrors } from '../domain/wallet.errors';
import type { BillingItem, BillingLine, MoneyTotal, ProjectionFigures } from './projection';

// The REST (snake_case, decimal strings) form of a projection's figures: what billing_projections
// stores as content and what the signed subscription period receipt carries (README.md "Billing").
// Amounts are decimal strings of any size (sums of BigInt micro-units never overflow), quantities
// integer strings, instants RFC 3339 with milliseconds.

export const RECEIPT_TYPE = 'subscription_period_receipt';

export interface ItemJson {
  object_id: string;
  meter: string;
  epoch: string;
  occurred_at: string;
  quantity: string;
  unit_price: string;
  amount: string;
  currency: string;
}

export interface LineJson {
  meter: string;
  epoch: string;
  unit_price: string;
  currency: string;
  quantity: string;
  amount: string;
  event_count: number;
}

export interface MoneyJson {
  currency: string;
  amount: string;
}

export interface ContentJson {
  lines: LineJson[];
  totals: MoneyJson[];
  items: ItemJson[];
}

export interface ReceiptPayloadJson {
  type: typeof RECEIPT_TYPE;
  period_receipt_id: string;
  agent_id: string;
  period: string;
  projection: ContentJson & { projection_id: string; event_count: number; events_sha256: string; computed_at: string };
  emitted_at: string;
}

/** A receipt payload read back: its figures in domain form. */
export interface ReceiptDocument {
  periodReceiptId: string;
  agentId: string;
  period: string;
  projectionId: string;
  figures: ProjectionFigures;
  computedAt: Date;
  emittedAt: Date;
}

export const itemJson = (i: BillingItem): ItemJson => ({
  object_id: i.objectId,
  meter: i.meter,
  epoch: i.epoch,
  occurred_at: i.occurredAt.toISOString(),
  quantity: i.quantity.toString(),
  unit_price: formatAmount(i.unitPrice),
  amount: formatAmount(i.amount),
  currency: i.currency,
});

export const lineJson = (l: BillingLine): LineJson => ({
  meter: l.meter,
  epoch: l.epoch,
  unit_price: formatAmount(l.unitPrice),
  currency: l.currency,
  quantity: l.quantity.toString(),
  amount: formatAmount(l.amount),
  event_count: l.eventCount,
});

export const moneyJson = (t: MoneyTotal): MoneyJson => ({ currency: t.currency, amount: formatAmount(t.amount) });

export function contentJson(f: Pick<ProjectionFigures, 'lines' | 'totals' | 'items'>): ContentJson {
  return { lines: f.lines.map(lineJson), totals: f.totals.map(moneyJson), items: f.items.map(itemJson) };
}

/**
 * The registry stores objects of at most 1 MiB: a projection whose receipt would not fit is refused
 * when it is computed (409 projection_too_large), not at emit. 4 KiB are left for the receipt's
 * own fields around the projection.
 */
export const MAX_RECEIPT_CONTENT_BYTES = 1024 * 1024 - 4096;

export function assertReceiptFits(f: ProjectionFigures): void {
  const bytes = Buffer.byteLength(JSON.stringify(contentJson(f)), 'utf8');
  if (bytes > MAX_RECEIPT_CONTENT_BYTES) {
    throw errors.failedPrecondition(
      'projection_too_large',
      `the period's receipt would take ${bytes} bytes; a signed receipt holds at most ${MAX_RECEIPT_CONTENT_BYTES} (report usage aggregated into fewer meter events)`,
      { event_count: f.eventCount, bytes },
    );
  }
}

export function receiptPayload(r: {
  periodReceiptId: string;
  agentId: string;
  period: string;
  projectionId: string;
  figures: ProjectionFigures;
  computedAt: Date;
  emittedAt: Date;
}): ReceiptPayloadJson {
  return {
    type: RECEIPT_TYPE,
    period_receipt_id: r.periodReceiptId,
    agent_id: r.agentId,
    period: r.period,
    projection: {
      projection_id: r.projectionId,
      ...contentJson(r.figures),
      event_count: r.figures.eventCount,
      events_sha256: r.figures.eventsSha256,
      computed_at: r.computedAt.toISOString(),
    },
    emitted_at: r.emittedAt.toISOString(),
  };
}

// ---- reading back (stored content, and receipts presented for reconciliation)

type Json = Record<string, unknown>;

const DECIMAL = /^(-?)(0|[1-9]\d*)(?:\.(\d{1,6}))?$/;
const INTEGER = /^(0|[1-9]\d*)$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Reads a JSON value against the receipt's shape; every refusal is 400 validation_failed naming the path. */
class ShapeReader {
  constructor(private readonly field: string) {}

  fail(path: string, what: string): never {
    throw walletErrors.validationFailed(`receipt ${path} must be ${what}`, { field: this.field, path });
  }

  object(v: unknown, path: string): Json {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, 'an object');
    return v as Json;
  }

  array(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) this.fail(path, 'an array');
    return v;
  }

  text(o: Json, key: string, path: string): string {
    const v = o[key];
    if (typeof v !== 'string' || v === '') this.fail(`${path}.${key}`, 'a non-empty string');
    return v;
  }

  count(o: Json, key: string, path: string): number {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) this.fail(`${path}.${key}`, 'a non-negative integer');
    return v;
  }

  /** A decimal string of micro-units, unbounded (sums may exceed BIGINT). */
  amount(o: Json, key: string, path: string): bigint {
    const m = typeof o[key] === 'string' ? DECIMAL.exec(o[key]) : null;
    if (!m) this.fail(`${path}.${key}`, 'a decimal string with at most 6 fraction digits');
    const micro = BigInt(m[2]) * MICRO_PER_UNIT + BigInt((m[3] ?? '').padEnd(6, '0'));
    return m[1] === '-' ? -micro : micro;
  }

  quantity(o: Json, key: string, path: string): bigint {
    const v = o[key];
    if (typeof v !== 'string' || !INTEGER.test(v)) this.fail(`${path}.${key}`, 'an integer string');
    return BigInt(v);
  }

  instant(o: Json, key: string, path: string): Date {
    const v = o[key];
    const t = typeof v === 'string' && RFC3339.test(v) ? Date.parse(v) : NaN;
    if (Number.isNaN(t)) this.fail(`${path}.${key}`, 'an RFC 3339 instant');
    return new Date(t);
  }
}

function readItem(r: ShapeReader, v: unknown, path: string): BillingItem {
  const o = r.object(v, path);
  return {
    objectId: r.text(o, 'object_id', path),
    meter: r.text(o, 'meter', path),
    epoch: r.text(o, 'epoch', path),
    occurredAt: r.instant(o, 'occurred_at', path),
    quantity: r.quantity(o, 'quantity', path),
    unitPrice: r.amount(o, 'unit_price', path),
    amount: r.amount(o, 'amount', path),
    currency: r.text(o, 'currency', path),
  };
}

function readLine(r: ShapeReader, v: unknown, path: string): BillingLine {
  const o = r.object(v, path);
  return {
    meter: r.text(o, 'meter', path),
    epoch: r.text(o, 'epoch', path),
    unitPrice: r.amount(o, 'unit_price', path),
    currency: r.text(o, 'currency', path),
    quantity: r.quantity(o, 'quantity', path),
    amount: r.amount(o, 'amount', path),
    eventCount: r.count(o, 'event_count', path),
  };
}

function readTotal(r: ShapeReader, v: unknown, path: string): MoneyTotal {
  const o = r.object(v, path);
  return { currency: r.text(o, 'currency', path), amount: r.amount(o, 'amount', path) };
}

function readContent(r: ShapeReader, o: Json, path: string): Pick<ProjectionFigures, 'lines' | 'totals' | 'items'> {
  return {
    lines: r.array(o['lines'], `${path}.lines`).map((v, i) => readLine(r, v, `${path}.lines[${i}]`)),
    totals: r.array(o['totals'], `${path}.totals`).map((v, i) => readTotal(r, v, `${path}.totals[${i}]`)),
    items: r.array(o['items'], `${path}.items`).map((v, i) => readItem(r, v, `${path}.items[${i}]`)),
  };
}

/** A projection's stored content back in domain form (the figures without their count and hash). */
export function readContentJson(content: unknown): Pick<ProjectionFigures, 'lines' | 'totals' | 'items'> {
  const r = new ShapeReader('content');
  return readContent(r, r.object(content, 'content'), 'content');
}

/**
 * A receipt payload (JSON text) in domain form, with the parsed value whose canonical form the
 * signature covers. Not JSON, or not the receipt's shape → 400 validation_failed.
 */
export function parseReceiptPayload(payloadJson: string, field = 'payload_json'): { payload: unknown; receipt: ReceiptDocument } {
  const r = new ShapeReader(field);
  let payload: unknown;
  try {
    payload = JSON.parse(payloadJson);
  } catch {
    throw walletErrors.validationFailed('receipt payload_json must be JSON', { field });
  }
  const o = r.object(payload, '$');
  if (o['type'] !== RECEIPT_TYPE) r.fail('$.type', `"${RECEIPT_TYPE}"`);
  const p = r.object(o['projection'], '$.projection');
  const content = readContent(r, p, '$.projection');
  return {
    payload,
    receipt: {
      periodReceiptId: r.text(o, 'period_receipt_id', '$'),
      agentId: r.text(o, 'agent_id', '$'),
      period: r.text(o, 'period', '$'),
      projectionId: r.text(p, 'projection_id', '$.projection'),
      figures: {
        ...content,
        eventCount: r.count(p, 'event_count', '$.projection'),
        eventsSha256: r.text(p, 'events_sha256', '$.projection'),
      },
      computedAt: r.instant(p, 'computed_at', '$.projection'),
      emittedAt: r.instant(o, 'emitted_at', '$'),
    },
  };
}
