import { sha256Hex } from '@exchange/crypto';
import { errors } from '@exchange/platform';

// Pricing and grouping of a billing projection (README.md "Billing"): pure, exact BigInt
// micro-units, never rounded. Sums are BigInt and leave as decimal strings, so they cannot overflow.

/** More meter events than this for one agent and period → 409 projection_too_large. */
export const MAX_PROJECTION_EVENTS = 10_000;

/** A stored meter event with its epoch table's price of the meter. */
export interface PricedMeterEvent {
  objectId: string;
  meter: string;
  epoch: string;
  occurredAt: Date;
  /** Positive integer units of the meter. */
  quantity: bigint;
  /** Micro-units per unit. */
  unitPrice: bigint;
  currency: string;
}

/** One priced event: amount = quantity × unit_price, exact. */
export interface BillingItem extends PricedMeterEvent {
  amount: bigint;
}

/** Σ of the items of one (meter, epoch). */
export interface BillingLine {
  meter: string;
  epoch: string;
  unitPrice: bigint;
  currency: string;
  quantity: bigint;
  amount: bigint;
  eventCount: number;
}

export interface MoneyTotal {
  currency: string;
  amount: bigint;
}

export interface ProjectionFigures {
  /** Sorted by (occurred_at, object_id). */
  items: BillingItem[];
  /** Sorted by (meter, epoch). */
  lines: BillingLine[];
  /** One per currency, sorted by currency. */
  totals: MoneyTotal[];
  eventCount: number;
  eventsSha256: string;
}

/** Code-unit order (never locale order): the same everywhere, so hashes and receipts are reproducible. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const byOccurrence = (a: Pick<BillingItem, 'occurredAt' | 'objectId'>, b: Pick<BillingItem, 'occurredAt' | 'objectId'>): number =>
  a.occurredAt.getTime() - b.occurredAt.getTime() || byText(a.objectId, b.objectId);

/** 409 projection_too_large when the period holds more events than a projection may price. */
export function assertProjectionSize(eventCount: number): void {
  if (eventCount > MAX_PROJECTION_EVENTS) {
    throw errors.failedPrecondition('projection_too_large', `the period has ${eventCount} meter events; a projection prices at most ${MAX_PROJECTION_EVENTS}`, {
      event_count: eventCount,
    });
  }
}

/** Hex sha256 of the object ids, sorted, joined by "\n": what emit compares to find a stale projection. */
export function eventsSha256Of(objectIds: readonly string[]): string {
  return sha256Hex([...objectIds].sort(byText).join('\n'));
}

export function priceItem(e: PricedMeterEvent): BillingItem {
  return { ...e, amount: e.quantity * e.unitPrice };
}

/**
 * Σ per (meter, epoch), sorted by (meter, epoch). The line's unit price and currency are its first
 * item's (an epoch prices a meter once, so they are all the same unless a receipt was tampered with).
 */
export function linesOf(items: readonly BillingItem[]): BillingLine[] {
  const lines = new Map<string, BillingLine>();
  for (const i of items) {
    const key = lineKey(i);
    const line = lines.get(key);
    if (line) {
      line.quantity += i.quantity;
      line.amount += i.amount;
      line.eventCount += 1;
    } else {
      lines.set(key, { meter: i.meter, epoch: i.epoch, unitPrice: i.unitPrice, currency: i.currency, quantity: i.quantity, amount: i.amount, eventCount: 1 });
    }
  }
  return [...lines.values()].sort((a, b) => byText(a.meter, b.meter) || byText(a.epoch, b.epoch));
}

/** "meter/epoch": a line's reference in reconciliation differences. */
export const lineKey = (l: { meter: string; epoch: string }): string => `${l.meter}/${l.epoch}`;

/** Σ amount per currency, sorted by currency. */
export function totalsOf(amounts: readonly { currency: string; amount: bigint }[]): MoneyTotal[] {
  const totals = new Map<string, bigint>();
  for (const a of amounts) totals.set(a.currency, (totals.get(a.currency) ?? 0n) + a.amount);
  return [...totals.entries()].map(([currency, amount]) => ({ currency, amount })).sort((a, b) => byText(a.currency, b.currency));
}

/** The projection of an agent's period from its priced meter events (any order). */
export function projectEvents(events: readonly PricedMeterEvent[]): ProjectionFigures {
  assertProjectionSize(events.length);
  const items = events.map(priceItem).sort(byOccurrence);
  const lines = linesOf(items);
  return { items, lines, totals: totalsOf(lines), eventCount: items.length, eventsSha256: eventsSha256Of(items.map((i) => i.objectId)) };
}

/** Whether two projections price the same events to the same totals (emit's staleness check). */
export function sameFigures(a: Pick<ProjectionFigures, 'eventCount' | 'eventsSha256' | 'totals'>, b: Pick<ProjectionFigures, 'eventCount' | 'eventsSha256' | 'totals'>): boolean {
  return (
    a.eventCount === b.eventCount &&
    a.eventsSha256 === b.eventsSha256 &&
    a.totals.length === b.totals.length &&
    a.totals.every((t, i) => t.currency === b.totals[i].currency && t.amount === b.totals[i].amount)
  );
}
