import type { Product } from '../catalog/catalog';

// The checkout session as the merchant keeps it (domain types, pure). The UCP JSON is rendered
// from it by checkout.view.ts; status and totals are recomputed on every response.

export const UCP_VERSION = '2026-04-08';
export const CHECKOUT_CAPABILITY = 'dev.ucp.shopping.checkout';
export const DISCOUNT_CAPABILITY = 'dev.ucp.shopping.discount';
export const ORDER_CAPABILITY = 'dev.ucp.shopping.order';
/** The capabilities every checkout response is rendered (and validated) with. */
export const CHECKOUT_CAPABILITIES = [CHECKOUT_CAPABILITY, DISCOUNT_CAPABILITY];

export type CheckoutStatus =
  | 'incomplete'
  | 'requires_escalation'
  | 'ready_for_complete'
  | 'complete_in_progress'
  | 'completed'
  | 'canceled';

/** States that are stored; the other three are derived from the cart on every read. */
export type StoredState = 'open' | 'complete_in_progress' | 'completed' | 'canceled';

export interface RequestedLine {
  itemId: string;
  quantity: number;
}

export interface UcpMessage {
  type: 'error' | 'warning' | 'info';
  code?: string;
  content: string;
  severity?: 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review' | 'unrecoverable';
  path?: string;
}

// Priced cart (computed by pricing.ts).
export interface Total {
  type: string;
  amount: number;
  display_text?: string;
}

export interface PricedLine {
  id: string;
  item: Product;
  quantity: number;
  totals: Total[];
}

export interface AppliedDiscount {
  code: string;
  title: string;
  amount: number;
  automatic: false;
  method: 'across';
  priority: number;
}

export interface Pricing {
  lineItems: PricedLine[];
  totals: Total[];
  total: number;
  applied: AppliedDiscount[];
  messages: UcpMessage[];
}

export interface PaymentInstrument {
  id: string;
  handler_id: string;
  type: string;
  selected?: boolean;
  display?: Record<string, unknown>;
  billing_address?: Record<string, unknown>;
  /** Never echoed with its token (the response view must not carry secrets). */
  credential?: { type: string };
}

export interface Order {
  id: string;
  label: string;
  permalink_url: string;
}

export interface CheckoutSession {
  id: string;
  currency: string;
  createdAt: number;
  expiresAt: number;
  lines: RequestedLine[];
  buyer?: Record<string, unknown>;
  context?: Record<string, unknown>;
  /** As sent (case kept); undefined = the discounts object was not sent. */
  discountCodes?: string[];
  state: StoredState;
  /** Highest cart total the buyer approved on the business UI (escalation cleared up to it). */
  approvedTotal?: number;
  payment?: { instruments: PaymentInstrument[] };
  /** Stock taken at complete (given back if a complete_in_progress session is canceled). */
  reserved?: RequestedLine[];
  order?: Order;
  /** The cart as priced when complete was accepted: what was bought (stock no longer checked). */
  snapshot?: Pricing;
}

/** A business outcome for which no checkout resource can be returned (UCP error_response). */
export class CheckoutError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    readonly severity: UcpMessage['severity'] = 'unrecoverable',
  ) {
    super(message);
    this.name = 'CheckoutError';
  }
}
