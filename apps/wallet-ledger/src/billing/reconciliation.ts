import { formatAmount } from '@exchange/platform';
import type { DifferenceKind, ReconciliationDifference } from './billing.model';
import type { CheckedEpochTable, CheckedMeterEvent } from './evidence';
import { byText, lineKey, linesOf, priceItem, totalsOf, type BillingItem, type BillingLine, type MoneyTotal } from './projection';
import { itemJson, type ReceiptDocument } from './receipt-payload';

// The diff of a period receipt against its recomputation from the signed meter events and epoch
// tables (README.md "Billing", reconciliation kinds). Pure: the service gathers and checks the
// evidence (evidence.ts), this lists every difference, sorted by (kind, ref, detail).

export interface ReconcileInput {
  receipt: ReceiptDocument;
  signatureValid: boolean;
  /** Every stored meter event of the receipt's agent and period, checked. */
  events: readonly CheckedMeterEvent[];
  /** Every epoch table those events name, checked. */
  epochs: readonly CheckedEpochTable[];
}

export interface ReconcileResult {
  consistent: boolean;
  differences: ReconciliationDifference[];
  receiptTotals: MoneyTotal[];
  recomputedTotals: MoneyTotal[];
  receiptEventCount: number;
  recomputedEventCount: number;
}

const KIND_ORDER: DifferenceKind[] = ['missing', 'extra', 'repriced', 'altered', 'total_mismatch', 'event_invalid', 'epoch_table_invalid', 'signature_invalid'];

const json = (v: unknown): string => JSON.stringify(v);
const diff = (kind: DifferenceKind, ref: string, receipt: unknown, recomputed: unknown, detail: string): ReconciliationDifference => ({
  kind,
  ref,
  receiptJson: receipt === undefined ? '' : json(receipt),
  recomputedJson: recomputed === undefined ? '' : json(recomputed),
  detail,
});

/** The receipt's items recomputed: each signed event priced by its signed epoch table. */
function recomputeItems(events: readonly CheckedMeterEvent[], epochs: readonly CheckedEpochTable[], out: ReconciliationDifference[]): BillingItem[] {
  const tables = new Map(epochs.map((t) => [t.epoch, t]));
  const unpriced = new Set<string>();
  return events.map((e) => {
    const table = tables.get(e.epoch);
    const unitPrice = table?.prices.get(e.meter);
    if (unitPrice === undefined && !unpriced.has(lineKey(e))) {
      unpriced.add(lineKey(e));
      out.push(diff('epoch_table_invalid', e.epoch, undefined, undefined, `epoch ${e.epoch} does not price meter ${e.meter}`));
    }
    return priceItem({ ...e, unitPrice: unitPrice ?? 0n, currency: table?.currency ?? '' });
  });
}

const placement = (i: BillingItem) => ({ meter: i.meter, epoch: i.epoch, quantity: i.quantity.toString(), occurred_at: i.occurredAt.toISOString() });
const pricing = (i: BillingItem) => ({ unit_price: formatAmount(i.unitPrice), amount: formatAmount(i.amount), currency: i.currency });

function diffItems(receipt: readonly BillingItem[], recomputed: readonly BillingItem[], out: ReconciliationDifference[]): void {
  const listed = new Map<string, BillingItem>();
  for (const item of receipt) {
    if (listed.has(item.objectId)) out.push(diff('extra', item.objectId, itemJson(item), undefined, 'the receipt lists this meter event more than once'));
    else listed.set(item.objectId, item);
  }
  const stored = new Map(recomputed.map((i) => [i.objectId, i]));
  for (const rec of recomputed) {
    const item = listed.get(rec.objectId);
    if (!item) {
      out.push(diff('missing', rec.objectId, undefined, itemJson(rec), 'a meter event of the agent and period that the receipt does not list'));
      continue;
    }
    if (json(placement(item)) !== json(placement(rec))) {
      out.push(diff('altered', rec.objectId, placement(item), placement(rec), 'the item\'s meter, epoch, quantity or occurred_at is not the meter event\'s'));
    }
    if (item.unitPrice !== rec.unitPrice || item.currency !== rec.currency || item.amount !== item.quantity * item.unitPrice) {
      out.push(diff('repriced', rec.objectId, pricing(item), pricing(rec), 'the item\'s unit price is not its epoch table\'s, or its amount is not quantity × unit price'));
    }
  }
  for (const item of listed.values()) {
    if (!stored.has(item.objectId)) out.push(diff('extra', item.objectId, itemJson(item), undefined, 'no meter event of the agent and period has this object id'));
  }
}

const lineSums = (l: BillingLine) => ({ unit_price: formatAmount(l.unitPrice), currency: l.currency, quantity: l.quantity.toString(), amount: formatAmount(l.amount), event_count: l.eventCount });

/** Each line against the sum of the receipt's own items of its (meter, epoch). */
function diffLines(receipt: ReceiptDocument, out: ReconciliationDifference[]): void {
  const expected = new Map(linesOf(receipt.figures.items).map((l) => [lineKey(l), l]));
  const seen = new Set<string>();
  for (const line of receipt.figures.lines) {
    const key = lineKey(line);
    if (seen.has(key)) {
      out.push(diff('total_mismatch', key, lineSums(line), undefined, 'the receipt lists this line more than once'));
      continue;
    }
    seen.add(key);
    const sum = expected.get(key);
    if (!sum || json(lineSums(sum)) !== json(lineSums(line))) {
      out.push(diff('total_mismatch', key, lineSums(line), sum && lineSums(sum), 'the line is not the sum of the receipt\'s items'));
    }
  }
  for (const [key, sum] of expected) {
    if (!seen.has(key)) out.push(diff('total_mismatch', key, undefined, lineSums(sum), 'the receipt\'s items have no line for this meter and epoch'));
  }
}

/** Per currency, absent counting as 0: every currency whose two totals differ. */
function diffTotals(stated: readonly MoneyTotal[], expected: readonly MoneyTotal[], detail: string, out: ReconciliationDifference[]): void {
  const a = new Map(stated.map((t) => [t.currency, t.amount]));
  const b = new Map(expected.map((t) => [t.currency, t.amount]));
  for (const currency of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(currency) ?? 0n;
    const y = b.get(currency) ?? 0n;
    if (x !== y) out.push(diff('total_mismatch', `total/${currency}`, { currency, amount: formatAmount(x) }, { currency, amount: formatAmount(y) }, detail));
  }
}

export function reconcile(input: ReconcileInput): ReconcileResult {
  const { receipt } = input;
  const out: ReconciliationDifference[] = [];
  if (!input.signatureValid) out.push(diff('signature_invalid', receipt.periodReceiptId, undefined, undefined, 'the exchange signature does not verify over canonical(payload)'));
  for (const e of input.events) if (e.problems.length > 0) out.push(diff('event_invalid', e.objectId, undefined, undefined, e.problems.join('; ')));
  for (const t of input.epochs) if (t.problems.length > 0) out.push(diff('epoch_table_invalid', t.epoch, undefined, undefined, t.problems.join('; ')));
  const recomputed = recomputeItems(input.events, input.epochs, out);
  const recomputedTotals = totalsOf(recomputed);
  diffItems(receipt.figures.items, recomputed, out);
  diffLines(receipt, out);
  diffTotals(receipt.figures.totals, totalsOf(receipt.figures.lines), 'the total is not the sum of the receipt\'s lines', out);
  diffTotals(receipt.figures.totals, recomputedTotals, 'the receipt\'s total is not what the meter events price to', out);
  out.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || byText(a.ref, b.ref) || byText(a.detail, b.detail));
  return {
    consistent: out.length === 0,
    differences: out,
    receiptTotals: receipt.figures.totals,
    recomputedTotals,
    receiptEventCount: receipt.figures.eventCount,
    recomputedEventCount: recomputed.length,
  };
}
