import type { Catalog } from '../catalog/catalog';
import type { AppliedDiscount, PricedLine, Pricing, RequestedLine, Total, UcpMessage } from './checkout';

// Line items, discounts and totals of a cart (domain, pure). Invariant: the non-`total` entries
// of `totals` sum to the `total` entry, at order and line level.

function priceLines(lines: readonly RequestedLine[], catalog: Catalog, messages: UcpMessage[]): PricedLine[] {
  const priced: PricedLine[] = [];
  lines.forEach((line, index) => {
    const path = `$.line_items[${index}]`;
    const product = catalog.product(line.itemId);
    if (!product) {
      messages.push({ type: 'error', code: 'item_unavailable', content: `Item ${line.itemId} is not sold here.`, severity: 'recoverable', path });
      return;
    }
    if (catalog.available(line.itemId) < line.quantity) {
      messages.push({ type: 'error', code: 'out_of_stock', content: `${product.title} is out of stock (${catalog.available(line.itemId)} left).`, severity: 'recoverable', path });
    }
    const amount = product.price * line.quantity;
    priced.push({ id: `li_${index + 1}`, item: product, quantity: line.quantity, totals: [{ type: 'subtotal', amount }, { type: 'total', amount }] });
  });
  return priced;
}

function applyCodes(codes: readonly string[], subtotal: number, catalog: Catalog, now: number, messages: UcpMessage[]): AppliedDiscount[] {
  const applied: AppliedDiscount[] = [];
  const seen = new Set<string>();
  let remaining = subtotal;
  codes.forEach((raw, index) => {
    const path = `$.discounts.codes[${index}]`;
    const code = raw.toUpperCase();
    const discount = catalog.discount(code);
    if (seen.has(code)) {
      messages.push({ type: 'warning', code: 'discount_code_already_applied', content: `Code ${raw} is already applied.`, path });
      return;
    }
    if (!discount) {
      messages.push({ type: 'warning', code: 'discount_code_invalid', content: `Code ${raw} is not valid.`, path });
      return;
    }
    if (discount.expiresAt !== undefined && now > discount.expiresAt) {
      messages.push({ type: 'warning', code: 'discount_code_expired', content: `Code ${raw} has expired.`, path });
      return;
    }
    seen.add(code);
    const wanted = discount.type === 'percentage' ? Math.floor((subtotal * discount.value) / 100) : discount.value;
    // Stacked codes never take the order below zero.
    const amount = Math.min(wanted, remaining);
    remaining -= amount;
    applied.push({ code, title: discount.title, amount, automatic: false, method: 'across', priority: applied.length + 1 });
  });
  return applied;
}

export function priceCart(lines: readonly RequestedLine[], codes: readonly string[], catalog: Catalog, now: number): Pricing {
  const messages: UcpMessage[] = [];
  const lineItems = priceLines(lines, catalog, messages);
  const subtotal = lineItems.reduce((sum, line) => sum + line.totals[0].amount, 0);
  const applied = applyCodes(codes, subtotal, catalog, now, messages);
  const discount = applied.reduce((sum, d) => sum + d.amount, 0);
  const totals: Total[] = [{ type: 'subtotal', amount: subtotal }];
  // A `discount` entry must be negative (schema): none when nothing was taken off.
  if (discount > 0) totals.push({ type: 'discount', amount: -discount, display_text: applied.map((d) => d.title).join(', ') });
  const total = subtotal - discount;
  totals.push({ type: 'total', amount: total });
  return { lineItems, totals, total, applied, messages };
}

/** The invariant a platform checks before completing: non-total entries sum to the total. */
export function totalsAddUp(totals: readonly Total[]): boolean {
  const total = totals.filter((t) => t.type === 'total');
  if (total.length !== 1) return false;
  const sum = totals.filter((t) => t.type !== 'total').reduce((s, t) => s + t.amount, 0);
  return sum === total[0].amount;
}
