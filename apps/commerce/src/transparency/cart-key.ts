import { sha256Hex } from '@exchange/crypto';

// A cart's identity for shadow compare: sha256 hex of the JSON text of its [item id, quantity]
// pairs sorted by item id. Lines naming the same item add up (two lines of 1 rose are the cart of
// one line of 2), and other line fields (titles, prices the merchant fills in) do not count.

/** The canonical pairs of line items `{item: {id}, quantity}`, by item id. */
export function cartPairs(lineItems: ReadonlyArray<Record<string, unknown>>): Array<[string, number]> {
  const quantities = new Map<string, number>();
  for (const line of lineItems) {
    const item = line['item'] as { id?: unknown } | undefined;
    const id = typeof item?.id === 'string' ? item.id : '';
    const quantity = typeof line['quantity'] === 'number' ? line['quantity'] : 0;
    quantities.set(id, (quantities.get(id) ?? 0) + quantity);
  }
  return [...quantities.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function cartKey(lineItems: ReadonlyArray<Record<string, unknown>>): string {
  return sha256Hex(JSON.stringify(cartPairs(lineItems)));
}
