// The parts of UCP 2026-04-08 objects commerce reads. The UCP JSON schemas (libs/ucp) are the
// full definition and every object is validated against them before these types are trusted.

/** A UCP message (checkout `messages[]`, error_response `messages[]`). */
export interface UcpMessage {
  type: 'error' | 'warning' | 'info';
  code?: string;
  content: string;
  severity?: 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review' | 'unrecoverable';
  path?: string;
  [key: string]: unknown;
}

export interface UcpTotal {
  type: string;
  amount: number;
  display_text?: string;
  [key: string]: unknown;
}

/** A merchant's checkout object (response view). Amounts are integer ISO 4217 minor units. */
export interface UcpCheckout {
  id: string;
  status: CheckoutStatus;
  currency: string;
  totals: UcpTotal[];
  line_items: Array<{ id?: string; item: { id: string; title?: string; price?: number; [key: string]: unknown }; quantity: number; [key: string]: unknown }>;
  messages?: UcpMessage[];
  continue_url?: string;
  order?: { id: string; permalink_url?: string; [key: string]: unknown };
  discounts?: { codes?: string[]; applied?: Array<{ code?: string; amount: number; title?: string; [key: string]: unknown }>; [key: string]: unknown };
  [key: string]: unknown;
}

export const CHECKOUT_STATUSES = ['incomplete', 'requires_escalation', 'ready_for_complete', 'complete_in_progress', 'completed', 'canceled'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** A UCP profile (`/.well-known/ucp`), validated against the profile schema before use. */
export type UcpProfileJson = { ucp: { version: string; [key: string]: unknown }; signing_keys?: Array<{ kid: string; kty: string; [key: string]: unknown }>; [key: string]: unknown };
