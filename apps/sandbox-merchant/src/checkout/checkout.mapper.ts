import type { CartInput, PaymentInput } from './checkout.service';

// UCP request JSON → domain input (transport). Bodies were validated against the UCP request
// view first, so the shapes hold; this only picks what the merchant uses.

interface LineItemJson {
  item: { id: string };
  quantity: number;
}

interface CartJson {
  line_items: LineItemJson[];
  buyer?: Record<string, unknown>;
  context?: Record<string, unknown>;
  discounts?: { codes?: string[] };
}

export function cartInput(body: unknown): CartInput {
  const json = body as CartJson;
  return {
    lines: json.line_items.map((line) => ({ itemId: line.item.id, quantity: line.quantity })),
    ...(json.buyer ? { buyer: json.buyer } : {}),
    ...(json.context ? { context: json.context } : {}),
    ...(json.discounts ? { discountCodes: json.discounts.codes ?? [] } : {}),
  };
}

export function paymentInput(body: unknown): PaymentInput {
  const json = body as { payment: { instruments?: PaymentInput['instruments'] } };
  return { instruments: json.payment.instruments ?? [] };
}
