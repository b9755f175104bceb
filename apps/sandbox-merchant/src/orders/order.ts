import { ORDER_CAPABILITY, UCP_VERSION, type CheckoutSession } from '../checkout/checkout';
import type { Pricing } from '../checkout/checkout';

// The order entity sent by webhook (the full entity, never a delta; ucp-digest §5). Pure.

export function orderEntity(session: CheckoutSession, pricing: Pricing, placedAt: number): Record<string, unknown> {
  if (!session.order) throw new Error(`checkout ${session.id} has no order`);
  return {
    ucp: { version: UCP_VERSION, capabilities: { [ORDER_CAPABILITY]: [{ version: UCP_VERSION }] } },
    id: session.order.id,
    label: session.order.label,
    checkout_id: session.id,
    permalink_url: session.order.permalink_url,
    line_items: pricing.lineItems.map((line) => ({
      id: line.id,
      item: line.item,
      quantity: { original: line.quantity, total: line.quantity, fulfilled: 0 },
      totals: line.totals,
      status: 'processing',
    })),
    fulfillment: {
      expectations: [],
      events: [{ id: `evt_${session.order.id}_1`, occurred_at: new Date(placedAt).toISOString(), type: 'processing', line_items: pricing.lineItems.map((l) => ({ id: l.id, quantity: l.quantity })) }],
    },
    currency: session.currency,
    totals: pricing.totals,
  };
}
